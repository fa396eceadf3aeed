import type { FormInstance } from 'antd';

/*
 * The login page the HTML arrives with (build/prerender-login.ts) is the real form, drawn before any
 * script runs; the app starts when the visitor first uses the page (src/boot.ts) and its own form then
 * replaces the drawn one. Whatever the visitor did meanwhile carries over: typed values (and a
 * password manager's), the focused field, a submit (Enter or Log In) and a press on a button.
 */

/**
 * The drawn form, or null when the page came without it (every page but a prerendered /login, and the
 * build's own render in Node).
 */
export const prerenderedLoginForm = (): HTMLFormElement | null =>
  typeof document === 'undefined'
    ? null
    : document.querySelector<HTMLFormElement>('#root[data-prerendered="login"] form#login');

/** Remembers, on the drawn form, what the visitor does before the app runs. Called by src/boot.ts. */
export function recordEarlyUse(form: HTMLFormElement): void {
  form.addEventListener('submit', (event) => {
    // Nothing to send it yet: the app's form sends it once it is up.
    event.preventDefault();
    form.dataset.submitted = 'true';
  });
  form.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && event.target.id) form.dataset.focused = event.target.id;
  });
  form.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    if (button?.textContent) form.dataset.pressed = button.textContent;
  });
}

interface EarlyValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

function earlyValues(form: HTMLFormElement): EarlyValues {
  const input = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`);
  return {
    email: input('login_email')?.value ?? '',
    password: input('login_password')?.value ?? '',
    rememberMe: input('login_rememberMe')?.checked ?? false,
  };
}

/**
 * Hands the drawn form over to the app's form, which has just replaced it (a layout effect, before the
 * browser paints). `drawn` is the drawn form, found before the app rendered; `mounted` the app's form
 * element.
 */
export function takeOver(
  drawn: HTMLFormElement,
  form: FormInstance<EarlyValues>,
  mounted: HTMLElement,
): void {
  // From here on the page is the app's (benchmarks and tests wait for this).
  delete mounted.ownerDocument.getElementById('root')?.dataset.prerendered;
  const values = earlyValues(drawn);
  if (values.email || values.password || values.rememberMe) form.setFieldsValue(values);
  const { focused, submitted, pressed } = drawn.dataset;
  if (focused) {
    const field = mounted.ownerDocument.getElementById(focused);
    field?.focus();
    // The caret after what was typed, where the input has one (an e-mail input refuses selections).
    if (field instanceof HTMLInputElement && ['text', 'password', 'search'].includes(field.type)) {
      field.setSelectionRange(field.value.length, field.value.length);
    }
  }
  if (submitted) form.submit();
  else if (pressed) {
    const again = [...mounted.querySelectorAll<HTMLButtonElement>('button[type="button"]')].find(
      (button) => button.textContent === pressed,
    );
    again?.click();
  }
}
