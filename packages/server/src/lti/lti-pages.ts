import { randomBytes } from 'node:crypto';
import { MSG } from '@helix/shared';
import { escapeHtml } from '../escape-html.ts';

/**
 * The pages Helix shows inside a learning platform's frame (docs/lti.md): errors, the deep-linking
 * picker and the form that posts the picker's answer back. Drawn on the server without the web app
 * (a teacher or pupil in an LMS has no Helix session), each with its own content security policy: a
 * per-page nonce for its one style sheet and script, form targets limited to Helix and the platform,
 * and framing by the platform's origins (any origin for an error page, which shows nothing of a school).
 */

export interface LtiPage {
  html: string;
  /** The Content-Security-Policy header. */
  csp: string;
}

const STYLE = `
:root { color-scheme: light; --accent: #5f51fb; --text: #1f1f2e; --muted: #5b5b6b; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: #fafafe; }
main { max-width: 960px; margin: 0 auto; padding: 24px 20px 96px; }
h1 { font-size: 1.4rem; margin: 0 0 12px; }
p { margin: 0 0 12px; }
.muted { color: var(--muted); font-size: .9rem; }
.error { border-left: 4px solid #c62828; background: #fff; padding: 16px 20px; border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.alert { color: #b71c1c; font-weight: 600; }
fieldset { border: 0; padding: 0; margin: 0; }
div.search { display: flex; gap: 8px; margin: 12px 0 16px; }
input[type=search] { flex: 1; font: inherit; padding: 8px 10px; border: 1px solid #c9c9d6; border-radius: 6px; }
button { font: inherit; padding: 8px 16px; border-radius: 6px; border: 1px solid var(--accent); background: #fff; color: var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: #fff; }
button:focus-visible, input:focus-visible, label:focus-within { outline: 3px solid #ffb300; outline-offset: 2px; }
ul.models { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px; }
ul.models label { display: flex; flex-direction: column; gap: 8px; background: #fff; border: 1px solid #e0e0ea; border-radius: 8px; padding: 10px; cursor: pointer; height: 100%; }
ul.models label:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent) inset; }
ul.models img, ul.models .nothumb { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 4px; background: #eceaff; }
ul.models .name { display: flex; gap: 8px; align-items: flex-start; font-weight: 600; }
.teach { display: flex; flex-direction: column; height: 100vh; max-width: none; padding: 0; }
.teach header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; padding: 10px 16px; background: #fff; border-bottom: 1px solid #e0e0ea; }
.teach header p { margin: 0; }
.teach iframe { flex: 1; width: 100%; border: 0; }
a.button { display: inline-block; text-decoration: none; padding: 8px 16px; border-radius: 6px; background: var(--accent); color: #fff; font-weight: 600; }
a.button:focus-visible { outline: 3px solid #ffb300; outline-offset: 2px; }
.actions { position: fixed; left: 0; right: 0; bottom: 0; background: #fff; border-top: 1px solid #e0e0ea; padding: 12px 20px; display: flex; gap: 8px; justify-content: flex-end; }
`;

function page(
  title: string,
  body: string,
  opts: { frameAncestors: string[]; formAction?: string[]; script?: string; frameSrc?: string[] },
): LtiPage {
  const nonce = randomBytes(16).toString('base64');
  const script = opts.script ? `<script nonce="${nonce}">${opts.script}</script>` : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Helix</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${body}
${script}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    `form-action ${["'self'", ...(opts.formAction ?? [])].join(' ')}`,
    ...(opts.frameSrc?.length ? [`frame-src ${opts.frameSrc.join(' ')}`] : []),
    `frame-ancestors ${opts.frameAncestors.length ? opts.frameAncestors.join(' ') : "'self'"}`,
    "base-uri 'none'",
  ].join('; ');
  return { html, csp };
}

/** An LTI failure as a page: what went wrong and what to do, with the code for the administrator. */
export function ltiErrorPage(message: string, code: string): LtiPage {
  return page(
    MSG.ltiErrorTitle,
    `<main>
<section class="error" role="alert" aria-labelledby="lti-error-title">
<h1 id="lti-error-title">${escapeHtml(MSG.ltiErrorTitle)}</h1>
<p data-testid="lti-error-message">${escapeHtml(message)}</p>
<p class="muted">Error code: <code>${escapeHtml(code)}</code></p>
</section>
</main>`,
    { frameAncestors: ['*'] },
  );
}

/**
 * The login initiation's answer when Helix does not redirect at once (login-destination.ts): the host
 * the sign-in continues at, and a button that goes there (GET, as the redirect would).
 */
export function ltiContinueLoginPage(url: string): LtiPage {
  const target = new URL(url);
  const fields = [...target.searchParams]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const action = `${target.origin}${target.pathname}`;
  return page(
    MSG.ltiLoginContinueTitle,
    `<main>
<form method="get" action="${escapeHtml(action)}" data-testid="lti-continue">
${fields}
<h1>${escapeHtml(MSG.ltiLoginContinueTitle)}</h1>
<p>${escapeHtml(MSG.ltiLoginContinue(target.host))}</p>
<p><button type="submit" class="primary">${escapeHtml(MSG.ltiLoginContinueButton(target.host))}</button></p>
</form>
</main>`,
    { frameAncestors: ['*'], formAction: [target.origin] },
  );
}

export interface PickerModel {
  id: number;
  name: string;
  thumbnail: string | null;
}

export interface PickerView {
  session: string;
  schoolName: string;
  models: PickerModel[];
  /** More models match than are shown (the teacher narrows with the search). */
  more: boolean;
  q: string;
  /** Models ticked before the search: ticked again when shown, kept as hidden fields when not. */
  selected: number[];
  multiple: boolean;
  /** The platform's origins: who may frame the picker. */
  frameAncestors: string[];
  error?: string;
}

/** The deep-linking picker: the school's catalogue, one or several models chosen, added or cancelled. */
export function ltiPickerPage(view: PickerView): LtiPage {
  const type = view.multiple ? 'checkbox' : 'radio';
  const items = view.models
    .map((m) => {
      const thumb = m.thumbnail
        ? `<img src="${escapeHtml(m.thumbnail)}" alt="" loading="lazy">`
        : '<span class="nothumb" aria-hidden="true"></span>';
      const checked = view.selected.includes(m.id) ? ' checked' : '';
      return `<li><label>${thumb}<span class="name"><input type="${type}" name="model" value="${m.id}"${checked}> ${escapeHtml(m.name)}</span></label></li>`;
    })
    .join('\n');
  const shown = new Set(view.models.map((m) => m.id));
  // A radio group keeps one choice: only the ticked checkboxes survive a search that hides them.
  const kept = view.multiple
    ? view.selected
        .filter((id) => !shown.has(id))
        .map((id) => `<input type="hidden" name="model" value="${id}">`)
        .join('')
    : '';
  const session = escapeHtml(view.session);
  const empty = view.q
    ? `<p>No model matches “${escapeHtml(view.q)}”.</p>`
    : '<p>Your school has no models to add yet.</p>';
  const body = `<main>
<h1 id="picker-title">Choose ${view.multiple ? 'models' : 'a model'} from ${escapeHtml(view.schoolName)}</h1>
<p class="muted">${view.multiple ? 'Select one or several models, then choose “Add to course”.' : 'Select a model, then choose “Add to course”.'} Pupils open them without a Helix account.</p>
<form method="post" action="/api/lti/deep-link" aria-labelledby="picker-title">
<input type="hidden" name="session" value="${session}">
<div class="search" role="search">
<label class="muted" for="picker-q">Search</label>
<input id="picker-q" type="search" name="q" value="${escapeHtml(view.q)}" maxlength="200" placeholder="Search models">
<button type="submit" formmethod="get" formnovalidate>Search</button>
</div>${kept}
${view.error ? `<p class="alert" role="alert" data-testid="picker-error">${escapeHtml(view.error)}</p>` : ''}
${view.models.length ? `<fieldset><legend class="muted">Models</legend><ul class="models">\n${items}\n</ul></fieldset>` : empty}
${view.more ? '<p class="muted">More models match: search to narrow the list.</p>' : ''}
<div class="actions">
<button type="submit" name="cancel" value="1" formnovalidate>Cancel</button>
<button type="submit" class="primary"${view.models.length ? '' : ' disabled'}>Add to course</button>
</div>
</form>
</main>`;
  return page('Choose models', body, { frameAncestors: view.frameAncestors });
}

/**
 * The answer to the platform: a form posting `fields` to `action` (the deep_link_return_url), sent by
 * a script at once, or by the button without scripts.
 */
export function ltiAutoPostPage(
  action: string,
  fields: Record<string, string>,
  message: string,
  frameAncestors: string[],
): LtiPage {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const body = `<main>
<form id="lti-return" method="post" action="${escapeHtml(action)}">
${inputs}
<h1>${escapeHtml(message)}</h1>
<p><button type="submit" class="primary">Continue</button></p>
</form>
</main>`;
  return page(message, body, {
    frameAncestors,
    formAction: [new URL(action).origin],
    script: "document.getElementById('lti-return').submit();",
  });
}

/** An instructor's launch when the school's plan has live lessons (lti-viewer.ts openLaunchedModel). */
export interface LtiTeachView {
  /** The viewer page with the instructor's ticket, as a learner's launch would open it. */
  viewerUrl: string;
  /** The portal page that starts (or reopens) the course's lesson with that ticket. */
  startUrl: string;
  modelName: string;
  courseTitle: string;
}

/**
 * The instructor's page in the course: the model in the viewer, as the class sees it, under a bar that
 * starts a live lesson for the course in a new tab (the teacher's Helix session is a first-party one
 * there, which a platform's frame would not carry). Framed by any site, like the viewer page it frames:
 * it shows nothing the viewer does not, and its one action opens Helix, where the session decides
 * (docs/live-lessons.md, "From a course").
 */
export function ltiTeachPage(view: LtiTeachView): LtiPage {
  const viewer = new URL(view.viewerUrl);
  return page(
    view.modelName,
    `<main class="teach">
<header>
<p><strong>${escapeHtml(view.courseTitle)}</strong> · ${escapeHtml(view.modelName)}</p>
<p><a class="button" href="${escapeHtml(view.startUrl)}" target="_blank" rel="noopener" data-testid="lti-start-lesson">${escapeHtml(MSG.ltiTeachStart)}</a></p>
<p class="muted">${escapeHtml(MSG.ltiTeachHint)}</p>
</header>
<iframe title="${escapeHtml(view.modelName)}" src="${escapeHtml(view.viewerUrl)}" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>
</main>`,
    { frameAncestors: ['*'], frameSrc: [viewer.origin] },
  );
}
