import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { drawnDocument } from '../src/prerender/drawn-document';
import type { PrerenderedPage } from '../src/prerender/login-page.server';
import { usedCss } from '../src/prerender/used-css';
import { writeCompressed } from './write-compressed';

const ENTRY = '/src/prerender/login-page.server.tsx';
/**
 * Writes dist/login.html after the client build: the login page as the app renders it for a
 * signed-out visitor (src/prerender/login-page.server.tsx, rendered in Node with the app's own
 * routes and components), with antd's styles for it inline. The API serves it for /login on the
 * portal's own host (apps/api/src/http/web-app.ts), so a classroom tablet paints the real form with the
 * HTML, and src/boot.ts starts the app only when the visitor first uses the page
 * (apps/web/README.md, "Loading").
 */
export function prerenderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'helix:prerender-login',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const indexPath = path.join(outDir, 'index.html');
      if (!existsSync(indexPath)) return;
      const server = await createServer({
        configFile: false,
        root: config.root,
        mode: 'production',
        logLevel: 'error',
        appType: 'custom',
        plugins: [react()],
        // Only what the render imports is loaded; no dependency scan of the whole app.
        optimizeDeps: { noDiscovery: true, include: [] },
        server: { middlewareMode: true, hmr: false, ws: false },
        // antd and its parts ship ES modules in folders Node would read as CommonJS: Vite loads them.
        resolve: { alias: [{ find: /^@ant-design\/icons$/, replacement: '@ant-design/icons/es/index.js' }] },
        ssr: { noExternal: [/^antd\//, /^antd$/, /^@ant-design\//, /^@rc-component\//, /^@emotion\//] },
      });
      try {
        const { renderLoginPage } = (await server.ssrLoadModule(ENTRY)) as {
          renderLoginPage: () => Promise<PrerenderedPage>;
        };
        const page = await renderLoginPage();
        const css = await usedCss(page.html, page.css);
        const html = drawnDocument(readFileSync(indexPath, 'utf8'), { html: page.html, css }, 'login');
        const file = path.join(outDir, 'login.html');
        writeCompressed(file, html);
        config.logger.info(
          `prerender-login: ${path.relative(config.root, file)} (${(html.length / 1024).toFixed(1)} kB)`,
        );
      } finally {
        await server.close();
      }
    },
  };
}
