import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ephemeralPortRange, freePort, portHeldBy, portIsFree } from './net.ts';

describe('freePort', () => {
  it('picks free ports outside the range the kernel hands out (port 0 binds, outgoing connections)', async () => {
    const { low, high } = ephemeralPortRange();
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort('127.0.0.1', 3);
      expect(port < low || port + 2 > high).toBe(true);
      for (const p of [port, port + 1, port + 2]) expect(await portIsFree(p)).toBe(true);
    }
  });

  it('never hands out the same port twice, even to callers picking at once', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
    expect(new Set(ports).size).toBe(200);
  });
});

describe('portHeldBy', () => {
  it("tells a child's own listening socket from another process's on the same port", async () => {
    const port = await freePort();
    // A child in a process group of its own (as the stack starts them), listening on `port`.
    const child = spawn(
      process.execPath,
      ['-e', `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('up'))`],
      { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(child.stdout!, 'data');
      expect(portHeldBy(port, child.pid)).toBe(true);
      // This process's group does not hold it.
      expect(portHeldBy(port, process.pid)).toBe(false);
      expect(portHeldBy(port + 1, child.pid)).toBe(false);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
      await once(child, 'exit');
    }
    // This process now listens there: the child's group holds nothing.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(portHeldBy(port, child.pid)).toBe(false);
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const ownGroup = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      expect(portHeldBy(port, ownGroup)).toBe(true);
    } finally {
      server.close();
    }
  });
});
