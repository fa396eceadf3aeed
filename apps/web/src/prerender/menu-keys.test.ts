import { describe, expect, it } from 'vitest';
import { menuFocusMove } from './menu-keys';

describe('the drawn menu keyboard', () => {
  it('opens from the button on the first item (ArrowDown) or the last (ArrowUp)', () => {
    expect(menuFocusMove('ArrowDown', -1, 2)).toBe(0);
    expect(menuFocusMove('ArrowUp', -1, 2)).toBe(1);
  });

  it('moves with the arrows, wrapping around, and jumps with Home and End', () => {
    expect(menuFocusMove('ArrowDown', 0, 2)).toBe(1);
    expect(menuFocusMove('ArrowDown', 1, 2)).toBe(0);
    expect(menuFocusMove('ArrowUp', 0, 2)).toBe(1);
    expect(menuFocusMove('ArrowUp', 2, 3)).toBe(1);
    expect(menuFocusMove('Home', 2, 3)).toBe(0);
    expect(menuFocusMove('End', 0, 3)).toBe(2);
  });

  it('leaves other keys and an empty menu alone', () => {
    expect(menuFocusMove('Enter', 0, 2)).toBeNull();
    expect(menuFocusMove('a', 0, 2)).toBeNull();
    expect(menuFocusMove('ArrowDown', -1, 0)).toBeNull();
  });
});
