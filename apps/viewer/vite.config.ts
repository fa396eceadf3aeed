import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// three's DRACOLoader references its decoder files with new URL(..., import.meta.url), so Vite
// copies them into dist/assets and Draco-compressed models work without extra configuration.
export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
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
