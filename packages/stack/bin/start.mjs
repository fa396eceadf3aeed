#!/usr/bin/env node
// `npm start`: plain Node with no dependencies, because it runs before anything is installed.
//  1. installs dependencies when node_modules is missing or older than package-lock.json;
//  2. generates the Prisma client (bin/generate.mjs);
//  3. runs packages/stack/src/start.ts with tsx (with this script's arguments, e.g. --cluster), forwarding
//     SIGINT/SIGTERM/SIGHUP, and exits with its code.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const at = (...parts) => path.join(root, ...parts);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Helix needs Node.js 20.19 or newer (this is ${process.versions.node}).`);
  process.exit(1);
}

/** npm itself: the one running this script when started by `npm start`, else `npm` on PATH. */
function npm(args) {
  const cli = process.env.npm_execpath;
  const [command, argv] =
    cli && /npm-cli\.c?js$/.test(cli) ? [process.execPath, [cli, ...args]] : ['npm', args];
  const result = spawnSync(command, argv, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installNeeded() {
  if (!existsSync(at('node_modules'))) return 'node_modules is missing';
  const lock = at('package-lock.json');
  const installed = at('node_modules', '.package-lock.json');
  if (!existsSync(lock)) return null;
  if (!existsSync(installed)) return 'node_modules was not installed from package-lock.json';
  if (statSync(lock).mtimeMs > statSync(installed).mtimeMs)
    return 'package-lock.json changed since the last install';
  return null;
}

const reason = installNeeded();
if (reason) {
  const hasLock = existsSync(at('package-lock.json'));
  console.log(`[start] ${reason}: running npm ${hasLock ? 'ci' : 'install'}`);
  const status = npm(hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
  if (status !== 0) {
    console.error('[start] installing dependencies failed.');
    process.exit(status);
  }
}

// postinstall already generated the client after an install; this covers a changed schema.prisma.
const generated = spawnSync(process.execPath, [at('packages', 'stack', 'bin', 'generate.mjs'), '--quiet'], {
  cwd: root,
  stdio: 'inherit',
});
if (generated.status !== 0) process.exit(generated.status ?? 1);

// `node --import tsx`: one process (the tsx command would add a wrapper process between us and it).
const tsx = pathToFileURL(at('node_modules', 'tsx', 'dist', 'loader.mjs')).href;
// Arguments (e.g. --cluster, `npm run start:cluster`) are passed on.
const child = spawn(
  process.execPath,
  ['--import', tsx, at('packages', 'stack', 'src', 'start.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
// npm does not always pass a signal on (e.g. SIGTERM to `npm start` ends npm alone): when the parent
// goes away, stop the stack as if it had been sent SIGTERM.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(watch);
    forward('SIGTERM');
  }
}, 1000);
watch.unref();
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
child.on('error', (error) => {
  console.error(`[start] could not run the stack: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
