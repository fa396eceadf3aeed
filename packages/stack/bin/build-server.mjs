#!/usr/bin/env node
// `npm run build:server` (part of `npm run build`): compiles the Node processes to plain JavaScript, so
// production runs `node` on them with no TypeScript loader and no Vite (the Procfile).
//
// Each entry is bundled with esbuild into <its package>/dist-node/: the workspace packages it imports
// (@helix/shared, @helix/server with its generated Prisma client, @helix/stack, ...) are inlined; every
// other package stays an import resolved from node_modules at run time (native modules, the Prisma
// runtime and its WebAssembly, sharp). The output sits at the same depth below its package as src/,
// so paths a module derives from import.meta.url (the repository root, the viewer's dist/) still hold.
// Source maps are written beside each bundle (dist-node is never served) and used for stack traces
// (`node --enable-source-maps`). The build fails when a package a bundle leaves to node_modules resolves,
// from the bundle's folder, to a version outside the range its importing workspace (or the app) declares
// (external-versions.mjs).
//
//   node packages/stack/bin/build-server.mjs [--quiet]
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { checkBundleExternals } from './external-versions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const quiet = process.argv.includes('--quiet');

/** What production runs: the Procfile's processes, its release step and the one-off seed and storage copy. */
const ENTRIES = [
  { name: 'api', entry: 'apps/api/src/main.ts', outDir: 'apps/api/dist-node' },
  {
    name: 'worker',
    entry: 'apps/worker/src/main.ts',
    outDir: 'apps/worker/dist-node',
    // Forked by images/rasterise-in-child.ts from beside the bundle (new URL(..., import.meta.url)).
    copy: ['apps/worker/src/images/rasterise-svg.process.mjs'],
  },
  { name: 'viewer', entry: 'apps/viewer/src/serve.ts', outDir: 'apps/viewer/dist-node' },
  { name: 'db-migrate', entry: 'packages/stack/src/db-migrate.ts', outDir: 'packages/stack/dist-node' },
  { name: 'db-seed', entry: 'packages/stack/src/db-seed.ts', outDir: 'packages/stack/dist-node' },
  {
    name: 'storage-migrate',
    entry: 'packages/stack/src/storage-migrate.ts',
    outDir: 'packages/stack/dist-node',
  },
];

/** Bare imports that are not the project's own workspace packages stay imports (node_modules). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@helix/') || path.isAbsolute(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const started = performance.now();
for (const dir of new Set(ENTRIES.map((e) => e.outDir)))
  rmSync(path.join(root, dir), { recursive: true, force: true });
const problems = [];
await Promise.all(
  ENTRIES.map(async ({ name, entry, outDir, outName, copy = [] }) => {
    const outfile = path.join(root, outDir, outName ?? path.basename(entry).replace(/\.ts$/, '.js'));
    const { metafile } = await build({
      absWorkingDir: root,
      entryPoints: [path.join(root, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      sourcemap: 'linked',
      // Workspace packages resolve to their TypeScript sources through package.json "exports".
      conditions: ['import', 'node'],
      plugins: [externalPackages],
      logLevel: 'warning',
      legalComments: 'none',
      metafile: true,
    });
    // The app's own package.json: the package the entry's src/ (or bin/) sits in.
    const appDir = path.dirname(path.dirname(entry));
    const externals = checkBundleExternals({ metafile, root, outDir, appDir });
    problems.push(...externals.problems.map((p) => `${name}: ${p}`));
    if (!quiet) for (const p of externals.undeclared) console.warn(`[build:server] ${name}: ${p}`);
    mkdirSync(path.join(root, outDir), { recursive: true });
    for (const file of copy)
      copyFileSync(path.join(root, file), path.join(root, outDir, path.basename(file)));
    if (!quiet) console.log(`[build:server] ${name}: ${path.relative(root, outfile)}`);
  }),
);
if (problems.length > 0) {
  console.error(
    `[build:server] external imports that would not load as declared:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
      '[build:server] declare the package in the workspace that imports it (and run npm install), so the version ' +
      'installed where the bundle runs is the one its code was written for.',
  );
  process.exit(1);
}
if (!quiet)
  console.log(
    `[build:server] compiled ${ENTRIES.length} entries in ${Math.round(performance.now() - started)} ms`,
  );
