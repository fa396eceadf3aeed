/**
 * What the page shows until the first route's code has arrived: the same neutral "Loading…" that
 * index.html paints before any script runs (styled there, inline), so the screen does not flash blank
 * between the HTML and the first page. Neutral on purpose: it is also what an embed shows inside a
 * customer's site and what a white-label login shows before its brand is known.
 */
export function BootScreen() {
  return (
    <p className="boot-screen" role="status">
      Loading…
    </p>
  );
}
