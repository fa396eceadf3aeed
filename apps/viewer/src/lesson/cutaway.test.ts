import { Box3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { cutawayPlane } from './cutaway.ts';

const box = new Box3(new Vector3(-2, 0, 10), new Vector3(2, 4, 20));
const kept = (axis: 'x' | 'y' | 'z', offset: number, p: [number, number, number]) =>
  cutawayPlane(box, { axis, offset }).distanceToPoint(new Vector3(...p)) >= 0;

describe('cutawayPlane', () => {
  it('cuts across the axis at the offset of the box: the lower side is kept', () => {
    // x from -2 to 2: offset 0 cuts at 0, 0.5 at 1.
    expect(kept('x', 0, [-0.1, 2, 15])).toBe(true);
    expect(kept('x', 0, [0.1, 2, 15])).toBe(false);
    expect(kept('x', 0.5, [0.9, 2, 15])).toBe(true);
    expect(kept('x', 0.5, [1.1, 2, 15])).toBe(false);
    // y from 0 to 4, z from 10 to 20.
    expect(kept('y', -0.5, [0, 0.9, 15])).toBe(true);
    expect(kept('y', -0.5, [0, 1.1, 15])).toBe(false);
    expect(kept('z', 0, [0, 2, 14.9])).toBe(true);
    expect(kept('z', 0, [0, 2, 15.1])).toBe(false);
  });

  it('keeps the whole model at 1 and none of it at -1', () => {
    for (const corner of [box.min, box.max]) {
      const p = corner.toArray() as [number, number, number];
      expect(kept('y', 1, p)).toBe(true);
    }
    expect(kept('y', -1, [0, 0.01, 15])).toBe(false);
  });
});
