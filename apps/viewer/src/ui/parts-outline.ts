import { MSG } from '@helix/shared/messages';
import type { Part, Viewer3D } from '../scene/viewer-3d.ts';
import { h } from './dom.ts';

export interface PartsOutline {
  el: HTMLElement;
  /** Re-read the viewer (a layer hidden, a part picked from the contents panel, Reset). */
  sync(): void;
}

/**
 * The parts as text, for keyboard and screen reader users, whatever the link's features: a listbox
 * after the 3D view in tab order (one Tab stop). Arrow keys, Home and End move between parts and each
 * focused part is highlighted in the view; Enter or Space flies to it; Escape clears the highlight.
 * Visually hidden until the keyboard reaches it, then shown as a panel so sighted keyboard users see
 * where they are. Screen readers read each part's name, description and whether it is hidden.
 */
export function partsOutline(viewer: Viewer3D, onChange: () => void): PartsOutline {
  const helpId = 'parts-outline-help';
  const list = h('ul', {
    class: 'parts-outline-list',
    role: 'listbox',
    'aria-label': MSG.viewerParts,
    'aria-describedby': helpId,
  });
  const options = viewer.parts.map((part, i) => {
    const descriptionId = `outline-${part.id}-description`;
    const state = h('span', { class: 'parts-outline-state', id: `outline-${part.id}-state` });
    const option = h(
      'li',
      {
        role: 'option',
        id: `outline-${part.id}`,
        class: 'parts-outline-item',
        'data-part': part.id,
        tabindex: i === 0 ? '0' : '-1',
        'aria-selected': 'false',
        // Named by the part's name (and "(hidden)"); the description is read after it.
        'aria-labelledby': `outline-${part.id}-name outline-${part.id}-state`,
        'aria-describedby': part.description ? descriptionId : null,
      },
      h('span', { class: 'parts-outline-name', id: `outline-${part.id}-name` }, part.name),
      state,
      part.description
        ? h('span', { class: 'parts-outline-description', id: descriptionId }, part.description)
        : null,
    );
    return { part, option, state };
  });
  list.append(...options.map((o) => o.option));

  /** The part chosen with Enter, Space or a click (null after Escape). */
  let chosen: Part | null = null;
  // A live lesson's follower reads the parts but cannot change the highlight (the leader's).
  const show = (part: Part) => {
    if (!part.object.visible || viewer.isLocked) return;
    viewer.highlight(part);
    onChange();
  };
  const moveTo = (index: number) => {
    const target = options[Math.max(0, Math.min(options.length - 1, index))];
    if (!target) return;
    for (const o of options) o.option.tabIndex = o === target ? 0 : -1;
    target.option.focus();
  };
  for (const [i, { part, option }] of options.entries()) {
    option.addEventListener('focus', () => show(part));
    option.addEventListener('click', () => {
      moveTo(i);
      if (!part.object.visible || viewer.isLocked) return;
      chosen = part;
      viewer.highlight(part);
      viewer.focusPart(part);
      onChange();
    });
    option.addEventListener('keydown', (e) => {
      let handled = true;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowRight':
          moveTo(i + 1);
          break;
        case 'ArrowUp':
        case 'ArrowLeft':
          moveTo(i - 1);
          break;
        case 'Home':
          moveTo(0);
          break;
        case 'End':
          moveTo(options.length - 1);
          break;
        case 'Enter':
        case ' ':
          if (part.object.visible && !viewer.isLocked) {
            chosen = part;
            viewer.highlight(part);
            viewer.focusPart(part);
            onChange();
          }
          break;
        case 'Escape':
          if (viewer.isLocked) break;
          chosen = null;
          viewer.highlight(null);
          onChange();
          break;
        default:
          handled = false;
      }
      // Handled here, so the viewer's own keys (arrows orbit) leave it alone.
      if (handled) e.preventDefault();
    });
  }
  list.addEventListener('focusout', (e) => {
    // Leaving the list: the part chosen with Enter (or a click) stays highlighted; parts only passed
    // over are not, so Tab-ing through leaves no stray highlight.
    if (list.contains(e.relatedTarget as Node | null) || viewer.isLocked) return;
    const keep = chosen && chosen.object.visible ? chosen : null;
    if (viewer.highlightedPart !== keep) {
      viewer.highlight(keep);
      onChange();
    }
  });

  const el = h(
    'section',
    { class: 'parts-outline', 'aria-label': MSG.viewerParts, 'data-feature': 'outline' },
    h('h2', { class: 'parts-outline-title' }, MSG.viewerParts),
    h('p', { class: 'parts-outline-help', id: helpId }, MSG.viewerPartsHelp),
    list,
  );
  return {
    el,
    sync() {
      // A highlight made elsewhere (contents panel, Reset) becomes the outline's choice.
      if (!list.contains(document.activeElement)) chosen = viewer.highlightedPart;
      for (const { part, option, state } of options) {
        option.setAttribute('aria-selected', String(viewer.highlightedPart === part));
        option.classList.toggle('is-hidden', !part.object.visible);
        state.textContent = part.object.visible ? '' : ' (hidden)';
      }
    },
  };
}
