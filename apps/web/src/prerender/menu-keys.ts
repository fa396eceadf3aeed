/**
 * The keyboard of a WAI-ARIA menu (the drawn page's user menu, ./drawn-user-menu.ts): which item the
 * focus moves to for a key, from `index` (-1: the menu's button) among `count` items; null for a key
 * that does not move it. The arrows wrap around; Home and End go to the first and last item.
 */
export function menuFocusMove(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowDown':
      return index < 0 ? 0 : (index + 1) % count;
    case 'ArrowUp':
      return index < 0 ? count - 1 : (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
