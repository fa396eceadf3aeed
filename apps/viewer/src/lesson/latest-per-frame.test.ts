import { describe, expect, it } from 'vitest';
import { LatestPerFrame } from './latest-per-frame.ts';

/** Animation frames by hand: frame() runs the callbacks asked for since the last frame. */
function frames() {
  let callbacks: (() => void)[] = [];
  return {
    request: (cb: () => void) => void callbacks.push(cb),
    asked: () => callbacks.length,
    frame: () => {
      const run = callbacks;
      callbacks = [];
      run.forEach((cb) => cb());
    },
  };
}

describe('LatestPerFrame', () => {
  it('runs only the latest of the values pushed between two frames, once', () => {
    const f = frames();
    const ran: number[] = [];
    const latest = new LatestPerFrame<number>((v) => ran.push(v), f.request);
    for (let i = 1; i <= 50; i++) latest.push(i);
    expect(f.asked()).toBe(1);
    expect(ran).toEqual([]);
    f.frame();
    expect(ran).toEqual([50]);
    f.frame();
    expect(ran).toEqual([50]);
    latest.push(51);
    latest.push(52);
    f.frame();
    expect(ran).toEqual([50, 52]);
  });

  it('flush() runs the waiting value now, and the frame then has nothing left to run', () => {
    const f = frames();
    const ran: string[] = [];
    const latest = new LatestPerFrame<string>((v) => ran.push(v), f.request);
    latest.push('a');
    expect(latest.waiting).toBe(true);
    latest.flush();
    expect(ran).toEqual(['a']);
    expect(latest.waiting).toBe(false);
    f.frame();
    expect(ran).toEqual(['a']);
    // A push after the flush still gets its frame.
    latest.push('b');
    f.frame();
    expect(ran).toEqual(['a', 'b']);
  });
});
