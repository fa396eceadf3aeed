import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { APP_PRELOADS } from '../src/server-render/document';
import { writeCompressed } from './write-compressed';

/**
 * index.html without the app's module preloads: the embed and share pages are not the app (src/boot.ts
 * hands them to pages/share/embed-start.ts and share-start.ts, which load their own few modules), so a
 * visitor's connection goes to the viewer frame and its model instead of React, the router and the
 * session code.
 */
export function embedDocument(indexHtml: string): string {
  return indexHtml.replace(APP_PRELOADS, '');
}

/**
 * Writes dist/embed.html (and its .br and .gz) after the client build. The API serves it for
 * /embed/{token} and /share/{token} (apps/api/src/http/web-app.ts).
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
      const html = embedDocument(readFileSync(indexPath, 'utf8'));
      writeCompressed(path.join(outDir, 'embed.html'), html);
    },
  };
}
