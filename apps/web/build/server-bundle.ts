import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { build, type Plugin, type ResolvedConfig } from 'vite';

/** What the API imports at run time to draw pages for a session (apps/api/src/http/server-render-support.ts). */
const SERVER_ENTRY = 'src/server-render/render-page.server.tsx';
/** Beside dist/, never served as a static file (SERVER_BUNDLE_DIR of @helix/shared/server-render, which the API reads). */
const SERVER_OUT_DIR = 'dist-server';

/**
 * The lazy modules each page the bundle renders is made of (src/routing/routes.tsx; src/boot.ts starts
 * the same), for its stylesheets and chunks (src/server-render/render-page.server.tsx, __PAGE_CSS__ and
 * __PAGE_ASSETS__).
 */
const PAGE_MODULES = {
  home: ['/src/ui/themed.tsx', '/src/layouts/app-layout.tsx', '/src/pages/models/models.page.tsx'],
  'users-list': [
    '/src/ui/themed.tsx',
    '/src/layouts/app-layout.tsx',
    '/src/layouts/settings-layout.tsx',
    '/src/pages/users/users-list.page.tsx',
  ],
  subscription: [
    '/src/ui/themed.tsx',
    '/src/layouts/app-layout.tsx',
    '/src/layouts/settings-layout.tsx',
    '/src/pages/subscription/subscription.page.tsx',
  ],
  login: ['/src/ui/themed.tsx', '/src/layouts/auth-layout.tsx', '/src/pages/login/auth.page.tsx'],
  join: ['/src/ui/themed.tsx', '/src/layouts/auth-layout.tsx', '/src/pages/lessons/join.page.tsx'],
  'choose-subscription': [
    '/src/ui/themed.tsx',
    '/src/layouts/auth-layout.tsx',
    '/src/pages/login/auth.page.tsx',
    '/src/pages/signup/signup-flow.tsx',
  ],
} as const;

/** What a page's lazy modules are made of in the client build: their chunks and the app's stylesheets. */
interface PageAssets {
  /** Each chunk, the modules' own and everything they import statically. */
  scripts: string[];
  /** The app's own stylesheets of those chunks. */
  styles: string[];
  /** Those the server-rendered page inlines: all but the entry's, which index.html inlines already. */
  inlined: string[];
}

function pageAssets(bundle: OutputBundle, modules: readonly string[]): PageAssets {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const files = new Set<string>();
  const css = new Set<string>();
  const inlined = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const chunk = bundle[file] as (OutputChunk & { viteMetadata?: { importedCss: Set<string> } }) | undefined;
    chunk?.viteMetadata?.importedCss.forEach((f) => {
      css.add(f);
      if (!chunk.isEntry) inlined.add(f);
    });
    chunk?.imports.forEach(visit);
  };
  for (const module of modules) {
    const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(module)));
    if (!chunk) throw new Error(`server-bundle: no chunk for ${module}`);
    visit(chunk.fileName);
  }
  return { scripts: [...files], styles: [...css], inlined: [...inlined] };
}

/**
 * After the client build, the server bundle: the signed-in home page's renderer
 * (src/server-render/render-page.server.tsx) with the app's routes and components, built for Node. antd and
 * its parts are bundled (they ship ES modules in folders Node reads as CommonJS); React, the router and
 * jotai stay imports, resolved from node_modules when the API loads the bundle.
 */
export function serverBundle(): Plugin {
  let config: ResolvedConfig;
  let assets: Record<string, PageAssets> = {};
  return {
    name: 'helix:server-bundle',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      assets = Object.fromEntries(
        Object.entries(PAGE_MODULES).map(([page, modules]) => [page, pageAssets(bundle, modules)]),
      );
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const cssOf = (files: string[]) =>
        files.map((file) => readFileSync(path.join(outDir, file), 'utf8')).join('\n');
      const pageCss = Object.fromEntries(
        Object.entries(assets).map(([page, { inlined }]) => [page, cssOf(inlined)]),
      );
      await build({
        configFile: false,
        root: config.root,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react()],
        define: {
          __PAGE_CSS__: JSON.stringify(pageCss),
          __PAGE_ASSETS__: JSON.stringify(
            Object.fromEntries(
              Object.entries(assets).map(([page, { scripts, styles }]) => [page, { scripts, styles }]),
            ),
          ),
          // The markup the browser's production build hydrates, whatever NODE_ENV the API runs with:
          // under `npm start` (development) antd's class names were its development ones
          // (`css-dev-only-do-not-override-…`), which the browser's antd did not know, so it inserted
          // every style of the page again while hydrating (about 260 kB on /user/home).
          'process.env.NODE_ENV': JSON.stringify('production'),
        },
        ssr: { noExternal: [/^antd\//, /^antd$/, /^@ant-design\//, /^@rc-component\//, /^@emotion\//] },
        build: {
          ssr: SERVER_ENTRY,
          outDir: path.join(config.root, SERVER_OUT_DIR),
          emptyOutDir: true,
          minify: false,
          sourcemap: false,
          copyPublicDir: false,
          rolldownOptions: { output: { entryFileNames: '[name].js', codeSplitting: false } },
        },
      });
      config.logger.info(`server-bundle: ${SERVER_OUT_DIR}/${path.basename(SERVER_ENTRY, '.tsx')}.js`);
    },
  };
}
