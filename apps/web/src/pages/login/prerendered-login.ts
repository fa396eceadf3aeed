import type { FormInstance } from 'antd';
import {
  addressOf,
  drawnRootSelector,
  elementAt,
  HANDOVER,
  hookSelector,
  type HandoverAddress,
  type HandoverHook,
} from '@helix/shared/handover';

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
    : document.querySelector<HTMLFormElement>(
        `${drawnRootSelector('login')} ${hookSelector(HANDOVER.loginForm)}`,
      );

/*
 * What the visitor did, by the elements' hand-over hooks (@helix/shared/handover), as the drawn home
 * does it (src/prerender/drawn-home.ts): one protocol for every drawn page.
 */
interface EarlyUse {
  submitted: boolean;
  focused: HandoverAddress | null;
  pressed: HandoverAddress | null;
}
const early = new WeakMap<HTMLFormElement, EarlyUse>();

/** Remembers, on the drawn form, what the visitor does before the app runs. Called by src/boot.ts. */
export function recordEarlyUse(form: HTMLFormElement): void {
  const use: EarlyUse = { submitted: false, focused: null, pressed: null };
  early.set(form, use);
  form.addEventListener('submit', (event) => {
    // Nothing to send it yet: the app's form sends it once it is up.
    event.preventDefault();
    use.submitted = true;
    // Answered at once: the button shows it is busy (styles/global.css) until the app sends the form.
    form.querySelector('button[type="submit"]')?.setAttribute('aria-busy', 'true');
  });
  form.addEventListener('focusin', (event) => {
    if (event.target instanceof Element) use.focused = addressOf(form, event.target) ?? use.focused;
  });
  form.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    const address = button && addressOf(form, button);
    if (address) {
      use.pressed = address;
      button.setAttribute('aria-busy', 'true');
    }
  });
}

interface EarlyValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

function earlyValues(form: HTMLFormElement): EarlyValues {
  const input = (hook: HandoverHook) => form.querySelector<HTMLInputElement>(hookSelector(hook));
  return {
    email: input(HANDOVER.loginEmail)?.value ?? '',
    password: input(HANDOVER.loginPassword)?.value ?? '',
    rememberMe: input(HANDOVER.loginRemember)?.checked ?? false,
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
  const { focused, submitted, pressed } = early.get(drawn) ?? {
    submitted: false,
    focused: null,
    pressed: null,
  };
  const field = focused && elementAt<Element>(mounted, focused);
  if (field instanceof HTMLElement) {
    field.focus();
    // The caret after what was typed, where the input has one (an e-mail input refuses selections).
    if (field instanceof HTMLInputElement && ['text', 'password', 'search'].includes(field.type)) {
      field.setSelectionRange(field.value.length, field.value.length);
    }
  }
  if (submitted) form.submit();
  else if (pressed) {
    const again = elementAt<Element>(mounted, pressed);
    if (again instanceof HTMLElement) again.click();
  }
}
