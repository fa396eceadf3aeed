import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The config is also run from the repository root (npm -w), so paths are anchored to this file.
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);
const apiTarget = 'http://localhost:3000';
const proxy = { '/api': { target: apiTarget, changeOrigin: false } };

export default defineConfig({
  root,
  plugins: [
    react(),
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
        navigateFallback: 'index.html',
        // API answers (and the OAuth round trip under /api/auth) and the dev mail page must always
        // reach the server; only the app shell is cached.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/dev(\/|$)/],
        cleanupOutdatedCaches: true,
        // antd makes the main chunk larger than Workbox's 2 MiB default; the shell must still precache.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for decoding logged stack traces, not referenced by the shipped files.
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // Libraries change less often than app code; separate chunks keep them cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/,
            },
            {
              name: 'antd',
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|@emotion)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
