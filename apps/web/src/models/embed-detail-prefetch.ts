/**
 * The share and embed pages' first call, asked for by src/boot.ts as the page starts, in parallel with
 * the download of the app and the page's code instead of after it (the viewer frame can only start
 * once the answer is in). The page takes the answer once (./embed-detail.api.ts), so a page load still
 * makes exactly one call. The kept viewer token goes with it (./viewer-token-store.ts), and where the
 * page is shown (./embed-host-context.ts). Nothing else
 * imported: this runs in the entry chunk, before anything else.
 */
import { embedHostContext } from './embed-host-context';
import { keptViewerToken } from './viewer-token-store';

let early: { token: string; response: Promise<Response> } | null = null;

export function prefetchEmbedDetail(token: string): void {
  early = {
    token,
    response: fetch('/api/model/embed/detail', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, viewer: keptViewerToken(token), host: embedHostContext() }),
      credentials: 'same-origin',
    }),
  };
}

/** The early answer for `token`, once; null when there is none (then the page asks itself). */
export function takeEarlyEmbedDetail(token: string): Promise<Response> | null {
  if (!early || early.token !== token) return null;
  const { response } = early;
  early = null;
  return response;
}
