/**
 * The image checks' lanes in one worker process: SVG rasterising (slow when an upload is hostile,
 * bounded only by the child's time limit) may hold at most `max` of the family's concurrent slots, so
 * at least one slot always takes the bitmaps (JPEG, PNG, WebP: bounded by their pixel limits, checked
 * in milliseconds). Schools uploading SVG bombs at once then slow each other's SVGs, never another
 * school's profile picture. Each school has at most one check at a time in any case (tenantImageSlot).
 */
export class SvgLanes {
  #busy = 0;
  constructor(readonly max: number) {}

  /** Takes a lane if one is free. */
  tryTake(): boolean {
    if (this.#busy >= this.max) return false;
    this.#busy += 1;
    return true;
  }

  release(): void {
    this.#busy = Math.max(0, this.#busy - 1);
  }

  get busy(): number {
    return this.#busy;
  }
}

/** The SVG lanes for a family running `concurrency` checks at once: all but one (at least one). */
export const svgLanesFor = (concurrency: number) => new SvgLanes(Math.max(1, concurrency - 1));

/** What sharp would read as SVG (text starting with markup) or gzip (svgz): rasterised, so a lane. */
export function mayBeSvg(bytes: Uint8Array): boolean {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  const head = Buffer.from(bytes.subarray(0, 1024))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}
