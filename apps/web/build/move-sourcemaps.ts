import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * The web app's source maps leave dist/ (which the API serves to anyone) once the build is done: they
 * are moved, with their folders, to `sourcemaps/` beside dist/ (apps/web/sourcemaps, gitignored), the
 * artefact to keep per release for decoding logged stack traces. The build writes them `hidden`, so no
 * shipped file refers to them. Runs after every other plugin has written its files (the service
 * worker, the compressed copies).
 */
export function moveSourcemaps(folder = 'sourcemaps'): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'helix:move-sourcemaps',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        const target = path.resolve(config.root, folder);
        rmSync(target, { recursive: true, force: true });
        let moved = 0;
        for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || !/\.map(\.(br|gz))?$/.test(entry.name)) continue;
          const from = path.join(entry.parentPath, entry.name);
          const to = path.join(target, path.relative(outDir, from));
          mkdirSync(path.dirname(to), { recursive: true });
          renameSync(from, to);
          moved += 1;
        }
        config.logger.info(
          `moved ${moved} source maps to ${path.relative(config.root, target)}/ (not served)`,
        );
      },
    },
  };
}
