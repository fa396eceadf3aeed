import { Box3, Group, Vector3, type Material, type Mesh, type Object3D } from 'three';

/** Without a real-world size in the model, its largest side is shown this long in AR (metres). */
export const DEFAULT_AR_SIZE_M = 0.3;

/**
 * How a model sits in AR: scaled to metres and moved so that the middle of its underside is at the
 * origin (the point on the floor or table where it is placed).
 */
export interface ArPlacement {
  /** Metres per model unit. */
  scale: number;
  /** Added to the model's coordinates before scaling. */
  offset: Vector3;
  /** True when the model's own metadata gave its real-world size. */
  realSize: boolean;
  /** Largest side in AR, in metres. */
  sizeM: number;
}

/** Real-world size where the model says so; otherwise its largest side fits DEFAULT_AR_SIZE_M. */
export function arPlacement(box: Box3, metersPerUnit: number | null): ArPlacement {
  const b = box.isEmpty() ? new Box3(new Vector3(-0.5, -0.5, -0.5), new Vector3(0.5, 0.5, 0.5)) : box;
  const size = b.getSize(new Vector3());
  const largest = Math.max(size.x, size.y, size.z, 1e-9);
  const scale = metersPerUnit ?? DEFAULT_AR_SIZE_M / largest;
  const centre = b.getCenter(new Vector3());
  return {
    scale,
    offset: new Vector3(-centre.x, -b.min.y, -centre.z),
    realSize: metersPerUnit !== null,
    sizeM: largest * scale,
  };
}

/**
 * A copy of the model for AR, placed per arPlacement inside a holder group: geometries and materials
 * are shared with the view (no second copy of the meshes in memory), except that a part highlighted in
 * the view gets its own material back. Hidden parts stay hidden (what you see is what goes into AR).
 */
export function arCopy(
  root: Object3D,
  metersPerUnit: number | null,
): { holder: Group; placement: ArPlacement } {
  const copy = root.clone(true);
  // clone() turns userData into JSON, so the highlight's saved materials are read from the original.
  const originals: Object3D[] = [];
  root.traverse((o) => originals.push(o));
  let i = 0;
  copy.traverse((o) => {
    const original = originals[i++]?.userData.__originalMaterial as Material | Material[] | undefined;
    if (original && (o as Mesh).isMesh) (o as Mesh).material = original;
    delete o.userData.__originalMaterial;
  });
  copy.position.set(0, 0, 0);
  copy.quaternion.identity();
  copy.scale.set(1, 1, 1);
  copy.updateMatrixWorld(true);
  const placement = arPlacement(new Box3().setFromObject(copy), metersPerUnit);
  copy.position.copy(placement.offset);
  const holder = new Group();
  holder.name = 'ARModel';
  holder.scale.setScalar(placement.scale);
  holder.add(copy);
  holder.updateMatrixWorld(true);
  return { holder, placement };
}
