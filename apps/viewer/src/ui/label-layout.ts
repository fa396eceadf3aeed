/**
 * Where each part label's name pill goes so that no two overlap and none leaves the frame (a phone's
 * small frame especially). A pill sits centred above its part's anchor; when that spot is taken or off
 * the frame it moves up or down a row at a time (the dot stays on the part), then sideways back into the
 * frame; a label that finds no free place is hidden rather than drawn over another. Labels are placed in
 * order of priority (the highlighted part first), then from the top of the frame down.
 */
export interface LabelRequest {
  /** The part's anchor on screen, in frame pixels. */
  x: number;
  y: number;
  /** The pill's size. */
  width: number;
  height: number;
  /** Placed before the others (the highlighted part). */
  first?: boolean;
}

/** The pill's offset from where it would sit by default (centred above the anchor), or null: hidden. */
export type LabelPlacement = { dx: number; dy: number } | null;

/** Space between the anchor's dot and the pill, and around the frame's edge. */
const ABOVE = 8;
const MARGIN = 2;
const GAP = 2;
/** Rows tried above and below the default spot. */
const ROWS = 3;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;

export function layoutLabels(
  labels: readonly LabelRequest[],
  frame: { width: number; height: number },
): LabelPlacement[] {
  const order = labels
    .map((label, index) => ({ label, index }))
    .sort((a, b) => Number(Boolean(b.label.first)) - Number(Boolean(a.label.first)) || a.label.y - b.label.y);
  const placed: Box[] = [];
  const result: LabelPlacement[] = labels.map(() => null);
  for (const { label, index } of order) {
    const { width, height } = label;
    if (width + 2 * MARGIN > frame.width || height + 2 * MARGIN > frame.height) continue;
    // Sideways: centred on the anchor, moved back inside the frame.
    const centred = label.x - width / 2;
    const left = Math.min(Math.max(centred, MARGIN), frame.width - MARGIN - width);
    const defaultTop = label.y - ABOVE - height;
    const step = height + GAP;
    const tops = [defaultTop];
    for (let row = 1; row <= ROWS; row += 1) tops.push(defaultTop - row * step, defaultTop + row * step);
    // Below the anchor as well (a part at the top edge).
    tops.push(label.y + ABOVE);
    for (const top of tops) {
      if (top < MARGIN || top + height > frame.height - MARGIN) continue;
      const box = { left, top, right: left + width, bottom: top + height };
      if (placed.some((other) => overlaps(box, other))) continue;
      placed.push(box);
      result[index] = { dx: left - centred, dy: top - defaultTop };
      break;
    }
  }
  return result;
}
