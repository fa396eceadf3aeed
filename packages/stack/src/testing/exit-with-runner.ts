/**
 * A vitest setup file (all three configurations): a test worker process ends when the vitest process
 * that started it is gone. vitest's worker processes otherwise keep running their file after vitest
 * itself was killed (parent 1), with whatever the file started. Ending the worker ends those too: its
 * children are guarded (packages/stack/src/services/orphan-guard.ts).
 */
const WATCHING = Symbol.for('helix.exit-with-runner');
const state = globalThis as { [WATCHING]?: boolean };

// Once per worker process (with isolate: false every file of the worker runs this file).
if (!state[WATCHING] && process.send) {
  state[WATCHING] = true;
  const runner = process.ppid;
  setInterval(() => {
    if (process.ppid === runner) return;
    process.stderr.write('[tests] the vitest process is gone: this worker stops\n');
    process.exit(1);
  }, 1000).unref();
}
