import type { EmbedFlag } from '@helix/shared/embed';
import type { Part, Viewer3D } from '../scene/viewer-3d.ts';
import { h, icon, ICONS } from './dom.ts';

let panelCount = 0;

/** A collapsible side panel. `collapsed` is its initial state (the hide_modal flag). */
export function panel(
  flag: EmbedFlag | 'lesson',
  title: string,
  iconPath: string,
  body: HTMLElement,
  collapsed: boolean,
): HTMLElement {
  const id = `panel-${++panelCount}`;
  body.id = id;
  body.classList.add('panel-body');
  body.hidden = collapsed;
  const toggle = h(
    'button',
    { type: 'button', class: 'panel-header', 'aria-expanded': String(!collapsed), 'aria-controls': id },
    icon(iconPath),
    h('span', { class: 'panel-title' }, title),
    h('span', { class: 'chevron', 'aria-hidden': 'true' }),
  );
  const section = h(
    'section',
    { class: 'panel', 'data-flag': flag, 'data-collapsed': String(collapsed), 'aria-label': title },
    toggle,
    body,
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    setPanelOpen(section, open);
    // Compact layout: one panel at a time, so the model stays visible.
    if (open && document.body.dataset.layout === 'mobile') {
      for (const other of section.parentElement?.querySelectorAll<HTMLElement>('.panel') ?? []) {
        if (other !== section) setPanelOpen(other, false);
      }
    }
  });
  return section;
}

export function setPanelOpen(section: HTMLElement, open: boolean): void {
  section.querySelector('.panel-header')?.setAttribute('aria-expanded', String(open));
  section.dataset.collapsed = String(!open);
  const body = section.querySelector<HTMLElement>('.panel-body');
  if (body) body.hidden = !open;
}

export function infoPanel(
  info: {
    title: string;
    description: string | null;
    version: string | null;
    partCount: number;
    animated: boolean;
  },
  collapsed: boolean,
): HTMLElement {
  const body = h(
    'div',
    {},
    h('h2', { class: 'model-title' }, info.title),
    info.description ? h('p', { class: 'model-description' }, info.description) : null,
    h(
      'dl',
      { class: 'model-facts' },
      h('dt', {}, 'Parts'),
      h('dd', {}, String(info.partCount)),
      info.animated ? h('dt', {}, 'Animation') : null,
      info.animated ? h('dd', {}, 'Yes') : null,
      info.version ? h('dt', {}, 'Version') : null,
      info.version ? h('dd', {}, info.version) : null,
    ),
  );
  return panel('info', 'Info', ICONS.info, body, collapsed);
}

export interface SyncedPanel {
  el: HTMLElement;
  /** Re-read the viewer state (another control changed it). */
  sync(): void;
}

export function layersPanel(viewer: Viewer3D, collapsed: boolean, onChange: () => void): SyncedPanel {
  const list = h('ul', { class: 'layer-list' });
  const boxes: HTMLInputElement[] = [];
  for (const part of viewer.parts) {
    const box = h('input', { type: 'checkbox', 'data-part': part.id, checked: true });
    box.checked = true;
    // A live lesson's follower: the box stays readable and focusable, but does not change.
    box.addEventListener('click', (e) => {
      if (viewer.isLocked) e.preventDefault();
    });
    box.addEventListener('change', () => {
      viewer.setPartVisible(part, box.checked);
      if (!box.checked && viewer.highlightedPart === part) viewer.highlight(null);
      onChange();
    });
    boxes.push(box);
    list.append(h('li', {}, h('label', { class: 'layer' }, box, h('span', {}, part.name))));
  }
  const all = h('button', { type: 'button', class: 'link-button' }, 'Show all');
  all.addEventListener('click', () => {
    if (viewer.isLocked) return;
    viewer.parts.forEach((p, i) => {
      viewer.setPartVisible(p, true);
      boxes[i]!.checked = true;
    });
    onChange();
  });
  return {
    el: panel('layers', 'Layers', ICONS.layers, h('div', {}, list, all), collapsed),
    sync: () => {
      // A live lesson's follower sees the leader's layers but cannot change them.
      viewer.parts.forEach((p, i) => {
        boxes[i]!.checked = p.object.visible;
        boxes[i]!.setAttribute('aria-disabled', String(viewer.isLocked));
      });
      all.setAttribute('aria-disabled', String(viewer.isLocked));
    },
  };
}

export function tocPanel(
  viewer: Viewer3D,
  collapsed: boolean,
  onSelect: (part: Part | null) => void,
): SyncedPanel {
  const list = h('ol', { class: 'toc-list' });
  const buttons = new Map<Part, HTMLButtonElement>();
  const sync = () => {
    for (const [p, b] of buttons) {
      b.setAttribute('aria-pressed', String(viewer.highlightedPart === p));
      // A live lesson's follower: still focusable (the descriptions are read), but it selects nothing.
      b.setAttribute('aria-disabled', String(viewer.isLocked));
    }
  };
  for (const part of viewer.parts) {
    const descriptionId = `${part.id}-description`;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'toc-item',
        'data-part': part.id,
        'aria-pressed': 'false',
        'aria-label': part.name,
        'aria-describedby': part.description ? descriptionId : null,
      },
      h('span', { class: 'toc-name' }, part.name),
      part.description ? h('span', { class: 'toc-description', id: descriptionId }, part.description) : null,
    );
    button.addEventListener('click', () => {
      if (viewer.isLocked) return;
      if (viewer.highlightedPart === part) {
        viewer.highlight(null);
        onSelect(null);
      } else {
        if (!part.object.visible) viewer.setPartVisible(part, true);
        viewer.highlight(part);
        viewer.focusPart(part);
        onSelect(part);
      }
      sync();
    });
    buttons.set(part, button);
    list.append(h('li', {}, button));
  }
  return { el: panel('table_of_content', 'Contents', ICONS.list, list, collapsed), sync };
}
