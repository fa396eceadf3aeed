import type { LessonView } from '@helix/shared/lessons';
import { ViewerLessonMessage } from '@helix/shared/lessons';
import { describe, expect, it } from 'vitest';
import { lessonViewMessage, readFrameMessage } from './frame-messages.ts';

const PORTAL = 'https://portal.example';
const parent = {} as MessageEventSource;
const other = {} as MessageEventSource;
const from = { parent, origin: PORTAL };
const view: LessonView = {
  camera: { position: [1, 2, 3], target: [0, 0, 0] },
  selected: 'Nucleus',
  hiddenParts: [],
  cutaway: { axis: 'x', offset: 0.5 },
  labels: true,
  colours: { Nucleus: '#1e88e5' },
  pointer: null,
};
const event = (data: unknown, origin = PORTAL, source: MessageEventSource | null = parent) => ({
  data,
  origin,
  source,
});

describe('readFrameMessage', () => {
  it("takes the lesson page's role, apply and status messages", () => {
    expect(readFrameMessage(event({ source: 'helix-lesson', type: 'role', role: 'lead' }), from)).toEqual({
      source: 'helix-lesson',
      type: 'role',
      role: 'lead',
    });
    expect(readFrameMessage(event({ source: 'helix-lesson', type: 'apply', view }), from)).toMatchObject({
      type: 'apply',
      view,
    });
    expect(
      readFrameMessage(event({ source: 'helix-lesson', type: 'status', status: 'reconnecting' }), from),
    ).toMatchObject({ type: 'status', status: 'reconnecting' });
  });

  it('ignores other windows, other origins and a viewer that is not framed', () => {
    const role = { source: 'helix-lesson', type: 'role', role: 'lead' };
    expect(readFrameMessage(event(role, PORTAL, other), from)).toBeNull();
    expect(readFrameMessage(event(role, PORTAL, null), from)).toBeNull();
    expect(readFrameMessage(event(role, 'https://evil.example'), from)).toBeNull();
    expect(readFrameMessage(event(role), { parent: null, origin: PORTAL })).toBeNull();
    // Without a known origin the parent window alone decides.
    expect(readFrameMessage(event(role, 'http://any.example'), { parent, origin: null })).not.toBeNull();
  });

  it('ignores anything that is not a valid lesson message', () => {
    const bad: unknown[] = [
      null,
      'role',
      { source: 'helix-portal', type: 'role', role: 'lead' },
      { source: 'helix-lesson', type: 'role', role: 'teacher' },
      { source: 'helix-lesson', type: 'dance' },
      {
        source: 'helix-lesson',
        type: 'apply',
        view: { ...view, camera: { position: [1, 2], target: [0, 0, 0] } },
      },
      { source: 'helix-lesson', type: 'apply', view: { ...view, cutaway: { axis: 'x', offset: 2 } } },
      { source: 'helix-lesson', type: 'apply', view: { ...view, colours: { Nucleus: 'red' } } },
      { source: 'helix-lesson', type: 'apply', view: { ...view, pointer: [0, 0, Number.NaN] } },
      { source: 'helix-lesson', type: 'apply', view: { ...view, selected: 'x'.repeat(201) } },
      { source: 'helix-lesson', type: 'status', status: 'offline' },
    ];
    for (const data of bad) expect(readFrameMessage(event(data), from), JSON.stringify(data)).toBeNull();
  });

  it("posts the leader's view in the contract's shape", () => {
    expect(ViewerLessonMessage.parse(lessonViewMessage(view))).toEqual({
      source: 'helix-viewer',
      type: 'lesson-view',
      view,
    });
  });
});
