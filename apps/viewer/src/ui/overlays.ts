import { LOAD_ERROR_MESSAGES, type LoadErrorKind } from '../load-model.ts';
import { h } from './dom.ts';

/** Loading card with a progress bar and, when the tenant has one, its branded loading image. */
export class LoadingOverlay {
  readonly el: HTMLDivElement;
  private bar: HTMLDivElement;
  private fill: HTMLDivElement;
  private text: HTMLSpanElement;

  constructor(loadingImage: string | null) {
    this.fill = h('div', { class: 'progress-fill' });
    this.bar = h(
      'div',
      {
        class: 'progress',
        role: 'progressbar',
        'aria-label': 'Loading model',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
      },
      this.fill,
    );
    this.text = h('span', { class: 'loading-text' }, 'Loading model…');
    this.el = h(
      'div',
      { class: 'overlay loading', 'data-testid': 'loading' },
      h(
        'div',
        { class: 'card' },
        loadingImage
          ? h('img', {
              class: 'loading-image',
              src: loadingImage,
              alt: '',
              decoding: 'async',
              referrerpolicy: 'no-referrer',
            })
          : h('div', { class: 'spinner', 'aria-hidden': 'true' }),
        this.bar,
        this.text,
      ),
    );
  }

  /** loaded/total in bytes; total null = unknown size (indeterminate bar). */
  progress(loaded: number, total: number | null): void {
    if (total) {
      const pct = Math.min(100, Math.round((loaded / total) * 100));
      this.bar.classList.remove('indeterminate');
      this.bar.setAttribute('aria-valuenow', String(pct));
      this.fill.style.width = `${pct}%`;
      this.text.textContent = `Loading model… ${pct}%`;
    } else {
      this.bar.classList.add('indeterminate');
      this.bar.removeAttribute('aria-valuenow');
      this.text.textContent = `Loading model… ${(loaded / 1048576).toFixed(1)} MB`;
    }
  }

  stage(text: string): void {
    this.text.textContent = text;
  }

  remove(): void {
    this.el.classList.add('done');
    setTimeout(() => this.el.remove(), 300);
  }
}

/**
 * Full-frame message for a model that cannot be shown (404, 403, 429, other failures). `userText`
 * (the API's message) replaces the kind's default explanation; the title stays the kind's.
 */
export function messageOverlay(
  kind: LoadErrorKind,
  status: number,
  userText?: string | null,
): HTMLDivElement {
  const { title, text: defaultText } = LOAD_ERROR_MESSAGES[kind];
  const text = userText?.trim() || defaultText;
  const retry = kind === 'network' || kind === 'http' || kind === 'invalid';
  // The view-limit panel is shown to pupils inside a school's page: no status code, an opaque card
  // that stays readable on whatever colour the host page paints behind a transparent embed.
  const limit = kind === 'limit';
  return h(
    'div',
    {
      class: `overlay message message-${kind}`,
      role: 'alert',
      'data-error-kind': kind,
      'data-status': status || null,
      'data-testid': limit ? 'view-limit-panel' : null,
    },
    h(
      'div',
      { class: 'card' },
      limit
        ? null
        : h('div', { class: 'message-code', 'aria-hidden': 'true' }, status ? String(status) : '!'),
      h('h1', { class: 'message-title' }, title),
      h('p', { class: 'message-text' }, text),
      retry ? h('button', { type: 'button', class: 'button', 'data-action': 'retry' }, 'Try again') : null,
    ),
  );
}
