import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { PurgeCSS } from 'purgecss';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import type { PrerenderedPage } from '../src/prerender/login-page.server';

const ENTRY = '/src/prerender/login-page.server.tsx';
/** The boot screen index.html paints inside #root (see index.html). */
const ROOT = /<div id="root">[\s\S]*?<\/div>/;
/** What React hoists out of a component tree (title, preloads) ahead of the markup. */
const HOISTED = /^(?:<title>[^<]*<\/title>|<link [^>]*\/?>|<meta [^>]*\/?>)+/;

/**
 * The rules of `css` that can apply to `html`: antd's styles for the form's components include every
 * state and size (the grid's 24 columns at six breakpoints, error states...) and every theme token as a
 * custom property, about 200 kB that the browser would parse and match before the first paint. The
 * app brings its full styles when it starts.
 */
export async function usedCss(html: string, css: string): Promise<string> {
  const [result] = await new PurgeCSS().purge({
    content: [{ raw: html, extension: 'html' }],
    css: [{ raw: css }],
    // The theme's 500-odd custom properties are set on every component's root element; only those the
    // kept rules read are needed.
    variables: true,
  });
  return result?.css ?? '';
}

/** index.html with the prerendered login page inside #root, and its title and styles in the head. */
export function loginDocument(indexHtml: string, page: { html: string; css: string }): string {
  if (!ROOT.test(indexHtml)) throw new Error('prerender-login: index.html has no <div id="root">');
  const hoisted = HOISTED.exec(page.html)?.[0] ?? '';
  const body = page.html.slice(hoisted.length);
  const title = /<title>[^<]*<\/title>/.exec(hoisted)?.[0];
  const head = `${hoisted.replace(/<title>[^<]*<\/title>/, '')}<style>${page.css}</style>`;
  let html = indexHtml;
  if (title) html = html.replace(/<title>[^<]*<\/title>/, title);
  html = html.replace('</head>', `  ${head}\n  </head>`);
  return html.replace(ROOT, () => `<div id="root" data-prerendered="login">${body}</div>`);
}

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
        const html = loginDocument(readFileSync(indexPath, 'utf8'), { html: page.html, css });
        const file = path.join(outDir, 'login.html');
        writeFileSync(file, html);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
        config.logger.info(
          `prerender-login: ${path.relative(config.root, file)} (${(html.length / 1024).toFixed(1)} kB)`,
        );
      } finally {
        await server.close();
      }
    },
  };
}
