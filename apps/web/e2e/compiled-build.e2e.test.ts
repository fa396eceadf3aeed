import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../../packages/stack/src/paths.ts';

/** Every file below a folder, as paths relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * The browser run's stack is what production runs: `npm run build` compiled the API, the worker and the
 * viewer to <app>/dist-node/, and the global setup started those files with plain node (the Procfile's
 * commands), not the TypeScript sources through tsx. Every other browser test therefore runs against
 * the compiled processes too.
 */
describe('the compiled build', () => {
  const commands = inject('processCommands');

  it('runs the API, the worker and the viewer from dist-node with plain node, and they answer', async () => {
    const expected = {
      api: 'apps/api/dist-node/main.js',
      worker: 'apps/worker/dist-node/main.js',
      viewer: 'apps/viewer/dist-node/serve.js',
    };
    for (const [name, file] of Object.entries(expected)) {
      const args = commands[name as keyof typeof expected];
      expect(args, name).toContain(path.join(ROOT, file));
      expect(args.join(' '), name).not.toMatch(/tsx|vite|\.ts\b/);
    }
    const health = await fetch(`${inject('apiUrl')}/api/health/ready`);
    expect(health.status).toBe(200);
    const viewer = await fetch(`${inject('viewerUrl')}/`);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain('<meta name="helix-api"');
  });

  it('keeps the web app source maps out of what the API serves', async () => {
    const dist = path.join(ROOT, 'apps/web/dist');
    const maps = path.join(ROOT, 'apps/web/sourcemaps');
    expect(files(dist).filter((file) => /\.map(\.(br|gz))?$/.test(file))).toEqual([]);
    // They are in the artefact folder instead, each beside where its script is in dist/.
    const mapFiles = files(maps);
    expect(mapFiles.filter((file) => file.startsWith('assets')).length).toBeGreaterThan(10);
    for (const map of mapFiles)
      expect(existsSync(path.join(dist, map.replace(/\.map$/, ''))), map).toBe(true);
    const scripts = files(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
    // No shipped file points at a map ("hidden" maps).
    for (const script of scripts) {
      expect(readFileSync(path.join(dist, 'assets', script), 'utf8'), script).not.toContain(
        'sourceMappingURL',
      );
    }
    // And asking for one gets a 404, whatever the encoding.
    for (const file of mapFiles.slice(0, 5)) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await fetch(`${inject('apiUrl')}/${file}`, {
          headers: { 'Accept-Encoding': encoding },
        });
        expect(answer.status, `${file} ${encoding}`).toBe(404);
      }
    }
    expect(existsSync(path.join(ROOT, 'apps/api/dist-node/main.js.map'))).toBe(true);
  });
});
