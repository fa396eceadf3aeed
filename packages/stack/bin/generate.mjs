#!/usr/bin/env node
// Generates the Prisma client (packages/server/src/generated/prisma, gitignored) from prisma/schema.prisma.
// Plain Node with no dependencies of its own: it runs as the root "postinstall" script, from `npm start`
// and from `npm test`.
//
// The Prisma CLI tries to download its native schema engine for every command, even `generate`, which
// does not use it; offline that download fails. PRISMA_SCHEMA_ENGINE_BINARY pointing at any executable
// stops the download, so this script writes a dummy one (it exits 1) under node_modules/.cache/helix/.
//
//   node packages/stack/bin/generate.mjs [--force] [--quiet]
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const schema = path.join(root, 'prisma', 'schema.prisma');
const client = path.join(root, 'packages', 'server', 'src', 'generated', 'prisma', 'client.ts');
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');

if (!force && existsSync(client) && statSync(client).mtimeMs > statSync(schema).mtimeMs) {
  if (!quiet) console.log('Prisma client is up to date.');
  process.exit(0);
}

const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (!existsSync(cli)) {
  console.error('The Prisma CLI is not installed (node_modules/prisma): run `npm install` first.');
  process.exit(1);
}

const cacheDir = path.join(root, 'node_modules', '.cache', 'helix');
const dummyEngine = path.join(cacheDir, 'schema-engine-dummy');
mkdirSync(cacheDir, { recursive: true });
writeFileSync(
  dummyEngine,
  '#!/bin/sh\necho "schema-engine is not available offline: see README, Database migrations" >&2\nexit 1\n',
);
chmodSync(dummyEngine, 0o755);

const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: dummyEngine,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
if (result.status !== 0) {
  console.error('prisma generate failed.');
  process.exit(result.status ?? 1);
}
