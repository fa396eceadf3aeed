import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ResolvedConfig } from 'vite';
import { APP_PRELOADS } from '../src/server-render/document';
import { writeCompressed } from './write-compressed';

/** The share and embed pages' styles: drawn by the server, styled from the first byte. */
const SHARE_CSS = fileURLToPath(new URL('../src/pages/share/share.css', import.meta.url));

/** CSS without its comments and runs of white space (a few hundred bytes less in every page load). */
const compactCss = (css: string): string =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};:,])\s*/g, '$1')
    .trim();

/**
 * index.html without the app's module preloads, with the share and embed pages' styles inlined: those
 * pages are not the app (React renders them on the server, apps/api/src/http/public-link-page.ts with
 * src/server-render/link-page.server.tsx, and src/boot.ts only loads pages/share/link-page-start.ts,
 * which hydrates the share page with React alone), so a visitor's connection goes to the viewer frame
 * and its model first, never to the app's router, antd or session code.
 */
export function embedDocument(indexHtml: string, css = ''): string {
  const styled = css
    ? indexHtml.replace('</head>', () => `<style>${compactCss(css)}</style></head>`)
    : indexHtml;
  return styled.replace(APP_PRELOADS, '');
}

/**
 * Writes dist/embed.html (and its .br and .gz) after the client build. The API serves it for
 * /embed/{token} and /share/{token} (apps/api/src/http/public-link-page.ts).
 */
export function writeEmbedDocument(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'helix:embed-document',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const indexPath = path.join(outDir, 'index.html');
      if (!existsSync(indexPath)) return;
      const html = embedDocument(readFileSync(indexPath, 'utf8'), readFileSync(SHARE_CSS, 'utf8'));
      writeCompressed(path.join(outDir, 'embed.html'), html);
    },
  };
}
