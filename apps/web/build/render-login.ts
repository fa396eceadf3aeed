import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { serverRenderedDocument, withGoogleFlag } from '../src/server-render/document';
import type { RenderedPage } from '../src/server-render/login-page.server';
import { writeCompressed } from './write-compressed';

const ENTRY = '/src/server-render/login-page.server.tsx';

/**
 * The login rendered at build time with "Continue with Google" (login.html) and without it (login-password.html, for a
 * server without a Google provider); apps/api/src/http/web-app.ts serves the one that fits.
 */
export const LOGIN_VARIANTS = [
  { file: 'login.html', google: true },
  { file: 'login-password.html', google: false },
] as const;

/** The /signup page, with and without "Continue with Google", the same way (issue 18 §14). */
export const SIGNUP_VARIANTS = [
  { file: 'signup.html', google: true },
  { file: 'signup-password.html', google: false },
] as const;

export function renderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'helix:render-login',
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
        type Render = (options: { google: boolean }) => Promise<RenderedPage>;
        const { renderLoginPage, renderSignupPage } = (await server.ssrLoadModule(ENTRY)) as {
          renderLoginPage: Render;
          renderSignupPage: Render;
        };
        const indexHtml = readFileSync(indexPath, 'utf8');
        const pages = [
          ...LOGIN_VARIANTS.map((v) => ({ ...v, kind: 'login' as const, render: renderLoginPage })),
          ...SIGNUP_VARIANTS.map((v) => ({ ...v, kind: 'signup' as const, render: renderSignupPage })),
        ];
        for (const variant of pages) {
          const page = await variant.render({ google: variant.google });
          const html = withGoogleFlag(serverRenderedDocument(indexHtml, page, variant.kind), variant.google);
          const file = path.join(outDir, variant.file);
          writeCompressed(file, html);
          config.logger.info(
            `server render: ${path.relative(config.root, file)} (${(html.length / 1024).toFixed(1)} kB)`,
          );
        }
      } finally {
        await server.close();
      }
    },
  };
}
