import { afterEach, describe, expect, it, vi } from 'vitest';
import { aSeat } from './lesson.fixtures';
import { forgetSeat, keepSeat, readSeat } from './pupil-seat';

/** A tab's sessionStorage, or one the browser refuses (a third party's frame, private mode). */
function storage(refused: boolean) {
  const items = new Map<string, string>();
  const refuse = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return {
    items,
    getItem: (k: string) => (refused ? refuse() : (items.get(k) ?? null)),
    setItem: (k: string, v: string) => (refused ? refuse() : void items.set(k, v)),
    removeItem: (k: string) => (refused ? refuse() : void items.delete(k)),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetSeat('lesson-1');
});

describe('the pupil’s seat', () => {
  it('is kept in the tab’s sessionStorage, so a reload of the tablet finds it', () => {
    const tab = storage(false);
    vi.stubGlobal('sessionStorage', tab);
    keepSeat(aSeat());
    expect(JSON.parse(tab.items.get('helix:lesson-seat:lesson-1')!)).toEqual(aSeat());
    expect(readSeat('lesson-1')).toEqual(aSeat());
    expect(readSeat('lesson-2')).toBeNull();
    forgetSeat('lesson-1');
    expect(tab.items.size).toBe(0);
    expect(readSeat('lesson-1')).toBeNull();
  });

  it('lasts as long as the page where storage is refused (a course launch inside the platform’s frame)', () => {
    vi.stubGlobal('sessionStorage', storage(true));
    keepSeat(aSeat());
    expect(readSeat('lesson-1')).toEqual(aSeat());
    forgetSeat('lesson-1');
    expect(readSeat('lesson-1')).toBeNull();
  });

  it('ignores what does not parse as a seat of that lesson', () => {
    const tab = storage(false);
    tab.items.set('helix:lesson-seat:lesson-1', '{"lessonId":"lesson-9"}');
    tab.items.set('helix:lesson-seat:lesson-2', 'not json');
    vi.stubGlobal('sessionStorage', tab);
    expect(readSeat('lesson-1')).toBeNull();
    expect(readSeat('lesson-2')).toBeNull();
  });
});
