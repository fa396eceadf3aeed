import { Plane, Vector3, type Box3 } from 'three';
import type { Cutaway } from './lesson-view.ts';

const AXES = { x: new Vector3(1, 0, 0), y: new Vector3(0, 1, 0), z: new Vector3(0, 0, 1) } as const;

/**
 * The clipping plane of a cut-away across `axis` at `offset` of the model's extent (the box, world
 * coordinates): -1 is the box's low side, 0 its middle, 1 its high side. What lies beyond (higher
 * on the axis) is cut away: offset 1 keeps the whole model, -1 none of it. three.js keeps the side
 * where the plane's signed distance is positive: -axis·p + at >= 0, i.e. p <= at.
 */
export function cutawayPlane(box: Box3, cutaway: Cutaway, plane = new Plane()): Plane {
  const min = box.min[cutaway.axis];
  const max = box.max[cutaway.axis];
  const at = (min + max) / 2 + (cutaway.offset * (max - min)) / 2;
  return plane.set(AXES[cutaway.axis].clone().negate(), at);
}
