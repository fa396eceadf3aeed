import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { DependencyOutage } from './dependency-outage.ts';
import { redisErrorReporter } from '../redis.ts';
import { Writable } from 'node:stream';

function capture() {
  const lines: { msg: string; outageMs?: number; failures?: number; error?: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
      done();
    },
  });
  return { lines, logger: createLogger('info', 'test', stream) };
}

describe('DependencyOutage', () => {
  it('logs one line when an outage starts and one when it ends, however many failures between', async () => {
    const { lines, logger } = capture();
    let now = 1000;
    const outage = new DependencyOutage('redis', logger, { now: () => now });
    const recovered: number[] = [];
    outage.onRecovered((ms) => recovered.push(ms));
    outage.recovered(); // nothing to end
    for (let i = 0; i < 1000; i += 1) outage.failed(new Error('connect ECONNREFUSED'));
    expect(outage.down).toBe(true);
    now += 5300;
    outage.recovered();
    outage.recovered();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual([
      'redis unavailable: outage started',
      'redis available again after 5.3 s',
    ]);
    expect(lines[0]!.error).toBe('connect ECONNREFUSED');
    expect(lines[1]).toMatchObject({ outageMs: 5300, failures: 1000 });
    expect(recovered).toEqual([5300]);
    expect(outage.down).toBe(false);
  });

  it('starts an outage only when `confirm` says so (a slow answer on a busy machine is not one)', async () => {
    const { lines, logger } = capture();
    let answer = false;
    let asked = 0;
    const outage = new DependencyOutage('postgresql', logger, {
      confirm: async () => {
        asked += 1;
        return answer;
      },
    });
    outage.failed(new Error('timeout exceeded when trying to connect'));
    outage.failed(new Error('timeout exceeded when trying to connect')); // one confirmation at a time
    await new Promise((resolve) => setImmediate(resolve));
    expect(outage.down).toBe(false);
    expect(asked).toBe(1);
    answer = true;
    outage.failed(new Error('connect ECONNREFUSED'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(outage.down).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual(['postgresql unavailable: outage started']);
  });
});

describe('redisErrorReporter (the error events of Redis clients and BullMQ workers)', () => {
  it('counts connection errors towards the outage without a line each, and logs anything else', async () => {
    const { lines, logger } = capture();
    const outage = new DependencyOutage('redis', logger);
    const report = redisErrorReporter(outage, logger, { queue: 'email' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 180; i += 1) report(refused);
    report(new Error('Connection is closed.'));
    report(new Error('Command timed out'));
    outage.recovered();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual([
      'redis unavailable: outage started',
      expect.stringMatching(/^redis available again after/),
    ]);
    expect(lines[1]).toMatchObject({ failures: 182 });
    // Not a connection error: its own line, at warn, with what it came from.
    report(new Error('ERR unknown command'));
    expect(lines.at(-1)).toMatchObject({ msg: 'redis error', level: 40, queue: 'email' });
    expect(outage.down).toBe(false);
  });
});
