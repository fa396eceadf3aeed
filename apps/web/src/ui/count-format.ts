/**
 * View and user counts as the screens show them: '10,000'. One formatter for the app: each
 * `toLocaleString('en-US')` call builds a new ICU number formatter, which cost the model grid tens of
 * milliseconds of a tablet's first render.
 */
const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole, non-negative count with thousands grouped ('1,200'); missing or negative shows 0. */
export const formatCount = (n: number | null | undefined): string =>
  counts.format(Math.max(0, Math.trunc(n || 0)));
