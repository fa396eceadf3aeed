import net from 'node:net';
import { accessSync, constants, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Linux's ephemeral port range (/proc/sys/net/ipv4/ip_local_port_range, 32768-60999 by default): where
 * the kernel picks the port of anything binding port 0 and of every outgoing connection.
 */
export function ephemeralPortRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high && low <= high) return { low, high };
  } catch {
    // not Linux: the common default
  }
  return { low: 32768, high: 60999 };
}

/**
 * Where freePort picks: 20000-29999, below the ephemeral range (30000 up to it is left for fixed choices,
 * such as the bare-clone check's slots 31300-31392); above the range when it starts too low.
 */
function pickingWindow(count: number): { from: number; to: number } {
  const { low, high } = ephemeralPortRange();
  const top = Math.min(low, 30_000);
  if (top - 20_000 >= 1000 + count) return { from: 20_000, to: top - count };
  if (65_535 - high >= 1000 + count) return { from: high + 1, to: 65_536 - count };
  return { from: 1024, to: Math.max(1025, low - count) };
}

/**
 * The first of `count` ports in a row that nothing listens on now, for a server started later (a child
 * process told PORT=...). Picked at random OUTSIDE the kernel's ephemeral range: a port the kernel hands
 * out (to another process binding port 0, or to an outgoing connection) can never land there between
 * this check and the child's bind. Another process picking the same way may still choose the same port
 * (one chance in thousands): whoever waits for the child checks that the server answering is the child
 * itself (portHeldBy), and the child that lost the port dies with EADDRINUSE, a clear failure.
 */
export async function freePort(host = '127.0.0.1', count = 1): Promise<number> {
  const { from, to } = pickingWindow(count);
  for (let attempt = 0; ; attempt += 1) {
    const port = from + Math.floor(Math.random() * (to - from));
    const ports = Array.from({ length: count }, (_, i) => port + i);
    // Never the same port twice from this process: callers often pick several before starting anything.
    if (ports.some((p) => handedOut.has(p))) continue;
    for (const p of ports) handedOut.add(p);
    let free = true;
    for (let i = 0; i < count && free; i += 1) free = await portIsFree(port + i, host);
    if (free) return port;
    if (attempt > 200) throw new Error(`no ${count} free port(s) in a row found in ${from}-${to}`);
  }
}
const handedOut = new Set<number>();

/** The inodes of the TCP sockets listening on `port` (any address), from /proc/net; null without /proc. */
function listeningSockets(port: number): Set<string> | null {
  const inodes = new Set<string>();
  let readAny = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
      readAny = true;
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue; // 0A = LISTEN
      if (Number.parseInt(fields[1]!.split(':').pop()!, 16) === port) inodes.add(fields[9]!);
    }
  }
  return readAny ? inodes : null;
}

/**
 * True when the socket listening on `port` belongs to a process of the process group `pgid` (a child
 * started detached leads a group of its own: itself and whatever it forked). A health check alone cannot
 * tell our child from another server that took the port meanwhile. Where /proc cannot say (not Linux),
 * true.
 */
export function portHeldBy(port: number, pgid: number | undefined): boolean {
  if (!pgid) return false;
  const inodes = listeningSockets(port);
  if (inodes === null) return true;
  if (inodes.size === 0) return false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // after "(comm) ": state ppid pgrp ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== pgid) continue;
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = readlinkSafe(`/proc/${entry}/fd/${fd}`);
        if (target?.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return true;
      }
    } catch {
      // ended meanwhile, or not ours to read
    }
  }
  return false;
}

function readlinkSafe(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/** True when something accepts TCP connections on host:port. */
export function portAnswers(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when host:port can be listened on (nothing else holds it). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The full path of an executable on PATH, or null. */
export function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true; throws after `timeoutMs` with `what` in the message. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  {
    timeoutMs = 30_000,
    intervalMs = 200,
    signal,
  }: { timeoutMs?: number; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}
