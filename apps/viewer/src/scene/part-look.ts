import { Color, MeshStandardMaterial, type Material, type Mesh, type Object3D } from 'three';

const HIGHLIGHT = new Color('#ffb020');
/** Where a restyled mesh keeps the material(s) it came with. */
const ORIGINAL = '__originalMaterial';

/** How a part is drawn over its own materials: a colour set on it, the highlight. */
export interface PartLook {
  colour: string | null;
  highlighted: boolean;
}

const disposeAll = (m: Material | Material[]) => (Array.isArray(m) ? m : [m]).forEach((x) => x.dispose());

/**
 * Draws a part's meshes with a look: its own materials when there is nothing to show, otherwise
 * clones of them (shared materials stay intact) coloured and/or lit up. The clones a previous look
 * made are disposed; the originals never are.
 */
export function restylePart(object: Object3D, look: PartLook): void {
  object.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    const original = (mesh.userData[ORIGINAL] ?? mesh.material) as Material | Material[];
    if (mesh.material !== original) disposeAll(mesh.material);
    if (!look.colour && !look.highlighted) {
      mesh.material = original;
      delete mesh.userData[ORIGINAL];
      return;
    }
    mesh.userData[ORIGINAL] = original;
    const restyle = (m: Material) => {
      const c = m.clone();
      if (look.colour && 'color' in c && c.color instanceof Color) c.color.set(look.colour);
      if (look.highlighted && c instanceof MeshStandardMaterial) {
        c.emissive = HIGHLIGHT.clone();
        c.emissiveIntensity = 0.55;
        if (c.transparent) c.opacity = Math.min(1, c.opacity + 0.25);
      }
      return c;
    };
    mesh.material = Array.isArray(original) ? original.map(restyle) : restyle(original);
  });
}
