import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { pinnedFilesRoute } from './src/pwa/pinned-files-route';
import { serverPagesRoute } from './src/pwa/server-pages-route';
import { writeEmbedDocument } from './build/embed-document';
import { inlineEntryCss } from './build/inline-entry-css';
import { moveSourcemaps } from './build/move-sourcemaps';
import { preloadApp } from './build/preload-app';
import { renderLogin } from './build/render-login';
import { serverBundle } from './build/server-bundle';

// The config is also run from the repository root (npm -w), so paths are anchored to this file.
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);
const apiTarget = 'http://localhost:3000';
// /terms and /privacy are the API's pages (the defaults, or redirects to TERMS_URL/PRIVACY_URL).
const proxy = Object.fromEntries(
  ['/api', '/terms', '/privacy'].map((path) => [path, { target: apiTarget, changeOrigin: false }]),
);

export default defineConfig({
  root,
  plugins: [
    react(),
    inlineEntryCss(),
    preloadApp(),
    renderLogin(),
    writeEmbedDocument(),
    serverBundle(),
    VitePWA({
      // The app shows its own "new version" prompt; the page is never reloaded behind the user's back.
      registerType: 'prompt',
      injectRegister: false,
      // globPatterns below already precaches public/ (icons included); listing them twice would duplicate entries.
      includeManifestIcons: false,
      manifest: {
        name: 'Helix',
        short_name: 'Helix',
        description: 'View, brand, share and embed 3D biology and anatomy models.',
        theme_color: '#5f51fb',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: 'pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: 'pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: 'maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // Pages drawn at build time (login, sign-up) and the embed document are the server's answers, never
        // the device's; offline, the installed app opens index.html.
        globIgnores: [
          'login.html',
          'login-password.html',
          'signup.html',
          'signup-password.html',
          'embed.html',
        ],
        // Pages are the server's, the shell only when it cannot answer (src/pwa/server-pages-route.ts).
        navigateFallback: null,
        // Deletes older '-precache-' caches only: the pinned models' cache (helix-pinned-v1) survives
        // every update (src/offline/pinned-cache.ts).
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // Pages from the server first (src/pwa/server-pages-route.ts); thumbnails and branding images of
        // pinned models from the device (src/pwa/pinned-files-route.ts).
        runtimeCaching: [serverPagesRoute, pinnedFilesRoute],
      },
    }),
    // .br and .gz beside each text asset, made once at build time; the API serves the one the browser
    // accepts (apps/api/src/http/web-app.ts), so no request pays for compressing on the fly.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
    // Last: the maps leave dist/ for the sourcemaps/ artefact folder, never served.
    moveSourcemaps(),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for decoding logged stack traces, not referenced by the shipped files, and moved out of
    // dist/ to apps/web/sourcemaps/ (build/move-sourcemaps.ts): the API never serves them.
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // React changes less often than app code: its own chunk stays cached across releases. antd is
        // deliberately not one chunk: each lazily loaded page (src/routing/lazy-page.tsx) takes only the
        // components it uses, so /login does not download the tables, charts and modals of other pages.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            {
              // The router apart from React: the share page hydrates with React alone (pages/share).
              name: 'router',
              test: /node_modules[\\/](react-router|react-router-dom)[\\/]/,
            },
            {
              // What every antd component stands on (theme, CSS-in-JS, config, shared utilities, the
              // button): one chunk instead of dozens of tiny ones, so the first page makes few requests.
              name: 'antd-base',
              test: /node_modules[\\/](antd[\\/]es[\\/](_util|config-provider|theme|locale|style|button|space|form[\\/](context|validateMessagesContext))[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/]|@rc-component[\\/](util|motion|resize-observer|portal)[\\/]|stylis|clsx|@babel[\\/]runtime|throttle-debounce)/,
            },
            {
              // What forms stand on (Form, Input, Password, Checkbox, Divider, the field store and the
              // tooltip a form item can show): nearly every screen has a form, and as one chunk the
              // login page makes a handful fewer requests (each a round trip on a slow network).
              name: 'antd-forms',
              test: /node_modules[\\/](antd[\\/]es[\\/](form|input|checkbox|divider|grid|tooltip|_util[\\/]hooks)[\\/]|@rc-component[\\/](form|input|checkbox|tooltip|trigger|textarea)[\\/]|@ant-design[\\/]icons[\\/](es[\\/])?icons[\\/](EyeOutlined|EyeInvisibleOutlined|CloseCircleFilled)\b)/,
            },
          ],
        },
      },
    },
  },
});
