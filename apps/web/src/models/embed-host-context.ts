/**
 * Where this share or embed page is shown, as the page sees it, sent with the embed detail (the shared
 * schema EmbedHostContext): a link limited to some sites is shown and counted only inside them, and
 * the server decides (docs/links.md, "Where a link may be shown"). Imported by the entry chunk
 * (./embed-detail-prefetch.ts): no dependencies.
 */
export interface EmbedHostContext {
  /** location.ancestorOrigins, parent first (Chromium, Safari; Firefox has none). */
  ancestors?: string[];
  /** document.referrer: the embedding page's address (or origin, by its referrer policy). */
  referrer: string;
  /** Whether the page is in a frame. */
  framed: boolean;
}

export function embedHostContext(win: Window = window): EmbedHostContext {
  const ancestors = win.location.ancestorOrigins as DOMStringList | undefined;
  let framed: boolean;
  try {
    framed = win.top !== win.self;
  } catch {
    framed = true;
  }
  return {
    ...(ancestors ? { ancestors: Array.from(ancestors).slice(0, 20) } : {}),
    referrer: win.document.referrer.slice(0, 2000),
    framed,
  };
}
