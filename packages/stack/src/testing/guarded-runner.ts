/**
 * A process that starts children the ways the stack and the test harnesses do, prints their pids as
 * one JSON line, then waits to be killed (orphan-guard.test.ts). Children: a ManagedChild (its own
 * process group, with a grandchild in it) and a plain spawned child (the harnesses' API and worker).
 */
import { spawn } from 'node:child_process';
import { guardChild } from '../services/orphan-guard.ts';
import { ManagedChild } from '../services/process.ts';

const idle = 'setInterval(() => {}, 1000)';
const grandparent = `
  const { spawn } = require('node:child_process');
  const grandchild = spawn(process.execPath, ['-e', ${JSON.stringify(idle)}], { stdio: 'ignore' });
  console.log('grandchild ' + grandchild.pid);
  ${idle};
`;
const managed = new ManagedChild({
  name: 'managed',
  command: process.execPath,
  args: ['-e', grandparent],
  quiet: true,
});
const grandchild = Number((await managed.waitForLine(/^grandchild (\d+)$/, 20_000))[1]);
const plain = spawn(process.execPath, ['-e', idle], { stdio: 'ignore' });
guardChild(plain);
console.log(JSON.stringify({ pids: [managed.pid, grandchild, plain.pid] }));
if (process.argv.includes('--exit')) process.exit(0);
setInterval(() => {}, 1000);
