/**
 * A form sent before the app has hydrated the server-rendered page (a Log In or Sign Up pressed while
 * the code is still loading): the browser's own submission is prevented (it would load the page again
 * with nothing sent, and what was typed lost), and the form is submitted once, through the app, as
 * soon as the page is hydrated (`#root[data-hydrated]`, src/server-render/adopt.ts): the same button
 * pressed after hydration, so the app validates and sends it as always. Only the last form sent
 * counts, once: nothing is lost and nothing is done twice. Other presses before hydration do nothing
 * (a link still navigates); once hydrateRoot has started, React handles them itself.
 * Installed by src/boot.ts before the app's code is asked for.
 */
export function holdSubmitsUntilHydrated(root: HTMLElement): void {
  if (!root.dataset.serverRendered || root.dataset.hydrated) return;
  let pressed: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;

  const onSubmit = (event: SubmitEvent) => {
    if (root.dataset.hydrated) return;
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !root.contains(form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    pressed = { form, submitter: event.submitter };
  };
  document.addEventListener('submit', onSubmit, true);

  const hydrated = new MutationObserver(() => {
    if (!root.dataset.hydrated) return;
    hydrated.disconnect();
    document.removeEventListener('submit', onSubmit, true);
    const press = pressed;
    pressed = null;
    // The app's form is the same element (hydration adopts it): its submit handler now runs.
    if (press?.form.isConnected) {
      const submitter = press.submitter?.isConnected ? press.submitter : null;
      press.form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : null);
    }
  });
  hydrated.observe(root, { attributes: true, attributeFilter: ['data-hydrated'] });
}
