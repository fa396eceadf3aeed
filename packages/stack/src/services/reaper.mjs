// The reaper of one process's children (orphan-guard.ts starts it): reads "+<pid>" and "-<pid>" lines on
// stdin, the pids of the children its parent started and saw exit. When stdin ends (the parent exited,
// crashed or was SIGKILLed: the kernel closes its end of the pipe either way), every child still listed
// gets SIGTERM to its process group, and SIGKILL after REAPER_GRACE_MS (default 3000). Plain Node, no
// dependencies: it starts in a few tens of milliseconds.
const grace = Number(process.env.REAPER_GRACE_MS ?? 3000);
const pids = new Set();
let pending = '';

// A terminal's Ctrl-C or a hang-up is for the parent; this process only ends after its work.
for (const signal of ['SIGINT', 'SIGHUP']) process.on(signal, () => {});
process.on('SIGTERM', () => void reap());

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const pid = Number(line.slice(1));
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (line[0] === '+') pids.add(pid);
    else if (line[0] === '-') pids.delete(pid);
  }
});
process.stdin.on('end', () => void reap());
process.stdin.on('error', () => void reap());

/** A signal to the child's process group (it leads one when started detached), else to the child. */
function signal(pid, sig) {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    try {
      process.kill(pid, sig);
      return true;
    } catch {
      return false;
    }
  }
}

let reaping = false;
async function reap() {
  if (reaping) return;
  reaping = true;
  const alive = [...pids].filter((pid) => signal(pid, 'SIGTERM'));
  const deadline = Date.now() + grace;
  let left = alive;
  while (left.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = left.filter((pid) => signal(pid, 0));
  }
  for (const pid of left) signal(pid, 'SIGKILL');
  process.exit(0);
}
