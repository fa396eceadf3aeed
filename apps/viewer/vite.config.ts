import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Connect, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { allowSrcFromEnv, apiUrlFromEnv } from './src/api-config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `vite` / `vite preview`: answer GET /config.json { apiUrl, allowSrc } like src/serve.ts does, so the
 * page finds the API (API_URL, else PUBLIC_URL, else http://localhost:3000) and knows whether `src` is
 * honoured (VIEWER_ALLOW_SRC; the dev server allows it anyway). Nothing is baked into the build.
 */
function runtimeConfig(): Plugin {
  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url?.split('?')[0] !== '/config.json') return next();
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(JSON.stringify({ apiUrl: apiUrlFromEnv(process.env), allowSrc: allowSrcFromEnv(process.env) }));
  };
  return {
    name: 'helix-viewer-runtime-config',
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}

// three's DRACOLoader references its decoder files with new URL(..., import.meta.url), so Vite
// copies them into dist/assets and Draco-compressed models work without extra configuration.
export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  // .br and .gz beside each asset: the viewer server (src/serve.ts, sirv) sends them when accepted.
  plugins: [
    runtimeConfig(),
    // A service worker that keeps the viewer's own app (page, scripts, decoders) on the device, so the
    // portal can open a pinned model without network (src/offline-copy.ts). Registered only by the
    // portal's modal (standard mode), never on share and embed pages. No manifest: not an installable
    // app. It updates itself (nothing to lose in a viewer page) and caches nothing at run time: model
    // files stay with the portal, which hands a pinned copy over.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: false,
      workbox: {
        cacheId: 'helix-viewer',
        globPatterns: ['**/*.{js,css,html,wasm}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/(healthz|config\.json)$/, /^\/models\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: { port: Number(process.env.VIEWER_DEV_PORT ?? 5174), strictPort: false },
  preview: { port: Number(process.env.VIEWER_PORT ?? 3001) },
});
