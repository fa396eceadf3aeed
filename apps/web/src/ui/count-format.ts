/**
 * View and user counts as the screens show them: '10,000'. Grouped by hand rather than by
 * Intl.NumberFormat: the browser's first number formatter loads its locale data, which cost a tablet's
 * first screen about 50 ms (CPU slowed 4x) for a comma every three digits.
 */
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** A whole, non-negative count with thousands grouped ('1,200'); missing or negative shows 0. */
export const formatCount = (n: number | null | undefined): string =>
  String(Math.max(0, Math.trunc(n || 0))).replace(THOUSANDS, ',');
