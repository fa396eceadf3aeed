import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REAPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reaper.mjs');

let reaper: ChildProcess | undefined;

/** The reaper of this process's children, started on first use (one per process). */
function reaperProcess(): ChildProcess | undefined {
  if (reaper && reaper.exitCode === null && reaper.signalCode === null) return reaper;
  const started = spawn(process.execPath, [REAPER], {
    // Its own process group: a Ctrl-C or a `kill -- -<group>` meant for us leaves it to do its work.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  started.on('error', () => {}); // could not start: children are then guarded by our own exit hook only
  started.stdin!.on('error', () => {});
  // Neither the process nor its pipe keeps this process alive.
  started.unref();
  (started.stdin as unknown as { unref?: () => void }).unref?.();
  reaper = started;
  return started;
}

/**
 * Children die with whoever started them, however it ends. Node has no PR_SET_PDEATHSIG, so each process
 * that starts children has a reaper (reaper.mjs): a small detached process holding a pipe from this one.
 * When this process ends in any way (an exit, a crash, a signal, SIGKILL), the kernel closes the pipe,
 * and the reaper sends SIGTERM to every guarded child still running (to its process group when it leads
 * one), then SIGKILL after 3 s. Used by every child the stack starts (ManagedChild: `npm start`'s API,
 * worker, viewer, stripe-local, nginx, redis-server...) and by the test harnesses' own processes.
 */
export function guardChild(child: ChildProcess): void {
  const pid = child.pid;
  if (!pid) return;
  const guard = reaperProcess();
  if (!guard) return;
  guard.stdin!.write(`+${pid}\n`);
  child.once('exit', () => {
    if (guard.exitCode === null && guard.signalCode === null) guard.stdin!.write(`-${pid}\n`);
  });
}
