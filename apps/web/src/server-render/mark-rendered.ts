/**
 * A page's first render is committed: `data-hydrated` on #root and the `helix:hydrated` performance
 * mark for a hydrated page (tests and the bench wait for them), `helix:rendered` for one the app drew.
 * The app (src/main.tsx) and the share page (src/pages/share/hydrate-share.tsx) mark theirs alike.
 */
export function markRendered(root: HTMLElement, how: 'hydrated' | 'rendered'): void {
  root.dataset[how] = 'true';
  performance.mark(`helix:${how}`);
}
