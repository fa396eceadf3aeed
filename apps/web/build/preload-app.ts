import type { Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';

/**
 * index.html starts with src/boot.ts, which imports the app (src/main.tsx) only after the first paint.
 * So that the wait costs no download time, this adds `<link rel="modulepreload">` for the app's chunk
 * and every chunk it imports statically: the browser fetches and compiles them while it paints, and
 * runs them when boot asks.
 */
export function preloadApp(appEntry = '/src/main.tsx'): Plugin {
  return {
    name: 'helix:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const app = chunks.find((c) => c.facadeModuleId?.endsWith(appEntry));
        if (!app) throw new Error(`preload-app: no chunk for ${appEntry}`);
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          for (const dep of (bundle[file] as OutputChunk | undefined)?.imports ?? []) visit(dep);
        };
        visit(app.fileName);
        const present = new Set(
          [...html.matchAll(/href="\/([^"]+)"|src="\/([^"]+)"/g)].map((m) => m[1] ?? m[2]),
        );
        const links = [...files]
          .filter((file) => !present.has(file))
          // Low priority: nothing here is needed for the first paint, and a module preload is fetched at
          // high priority by default, which Lighthouse treats as render-blocking when it lands
          // before the paint (its simulated first paint then waits for the app's download).
          .map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`);
        return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}
