import { describe, expect, it } from 'vitest';
import { layoutLabels, type LabelRequest } from './label-layout.ts';

const pill = (x: number, y: number, width = 80, first = false): LabelRequest => ({
  x,
  y,
  width,
  height: 18,
  first,
});

/** The pill's box on screen for a placement (centred above the anchor by default). */
function boxOf(label: LabelRequest, at: { dx: number; dy: number }) {
  const left = label.x - label.width / 2 + at.dx;
  const top = label.y - 8 - label.height + at.dy;
  return { left, top, right: left + label.width, bottom: top + label.height };
}

describe('part labels on a small frame', () => {
  const frame = { width: 390, height: 300 };

  it('a label with room stays centred above its part', () => {
    expect(layoutLabels([pill(200, 150)], frame)).toEqual([{ dx: 0, dy: 0 }]);
  });

  it('labels of parts close together do not overlap', () => {
    const labels = [pill(190, 150), pill(200, 152), pill(210, 149), pill(195, 155)];
    const placed = layoutLabels(labels, frame);
    const boxes = placed.flatMap((p, i) => (p ? [boxOf(labels[i]!, p)] : []));
    expect(boxes.length).toBe(4);
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart).toBe(true);
      }
    }
  });

  it('a label at the edge is moved back inside the frame', () => {
    const labels = [pill(5, 150, 120), pill(388, 150, 120), pill(200, 4)];
    const placed = layoutLabels(labels, frame);
    labels.forEach((label, i) => {
      const box = boxOf(label, placed[i]!);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(frame.width);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(frame.height);
    });
  });

  it('with no free place a label is hidden, never drawn over another; the highlighted part keeps its', () => {
    const tiny = { width: 120, height: 40 };
    const placed = layoutLabels([pill(60, 30, 100), pill(60, 30, 100, true)], tiny);
    expect(placed[1]).toEqual({ dx: expect.any(Number), dy: expect.any(Number) });
    expect(placed[0]).toBeNull();
  });
});
