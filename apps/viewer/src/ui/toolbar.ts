import type { EmbedFlag } from '@helix/shared/embed';
import type { Viewer3D } from '../scene/viewer-3d.ts';
import { h, icon, ICONS } from './dom.ts';
import type { DrawLayer } from './draw-layer.ts';
import type { LabelLayer } from './labels.ts';

export interface ToolbarContext {
  flags: ReadonlySet<EmbedFlag>;
  viewer: Viewer3D;
  labels: LabelLayer | null;
  draw: DrawLayer | null;
  /** Element shown full screen (the whole viewer). */
  fullscreenTarget: HTMLElement;
  onChange: () => void;
}

export interface Toolbar {
  el: HTMLElement;
  togglePlay(): void;
  toggleFullscreen(): void;
  sync(): void;
}

const ZOOM_STEP = 1.25;

function iconButton(
  label: string,
  iconPath: string,
  attrs: Record<string, string | null> = {},
): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'tool', 'aria-label': label, title: label, ...attrs },
    icon(iconPath),
  );
}

/** The bottom toolbar: one control per enabled flag, each with data-flag on its root element. */
export function buildToolbar(ctx: ToolbarContext): Toolbar {
  const { flags, viewer, labels, draw } = ctx;
  const el = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Viewer controls' });
  const syncers: (() => void)[] = [];

  const togglePlay = () => {
    viewer.setPlaying(!viewer.isPlaying);
    sync();
  };
  if (flags.has('play')) {
    const b = iconButton('Play', ICONS.play, { 'data-flag': 'play' });
    b.addEventListener('click', togglePlay);
    syncers.push(() => {
      const playing = viewer.isPlaying;
      const label = playing ? 'Pause' : 'Play';
      b.setAttribute('aria-label', label);
      b.title = viewer.hasAnimations ? `${label} animation` : `${label} rotation`;
      b.replaceChildren(icon(playing ? ICONS.pause : ICONS.play));
    });
    el.append(b);
  }

  if (flags.has('labels_ui') && labels) {
    const b = iconButton('Labels', ICONS.labels, { 'data-flag': 'labels_ui', 'aria-pressed': 'false' });
    b.addEventListener('click', () => {
      labels.setVisible(!labels.visible);
      sync();
    });
    syncers.push(() => {
      b.setAttribute('aria-pressed', String(labels.visible));
      b.disabled = viewer.isLocked; // a live lesson's follower shows the leader's labels
    });
    el.append(b);
  }

  if (flags.has('draw') && draw) {
    const toggle = iconButton('Draw', ICONS.draw, { 'aria-pressed': 'false' });
    const clear = iconButton('Clear drawing', ICONS.clear);
    toggle.addEventListener('click', () => {
      draw.setActive(!draw.isActive);
      viewer.pauseInput('draw', draw.isActive);
      sync();
    });
    clear.addEventListener('click', () => draw.clear());
    draw.onChange = () => sync();
    syncers.push(() => {
      toggle.setAttribute('aria-pressed', String(draw.isActive));
      clear.hidden = !draw.hasStrokes;
    });
    el.append(
      h(
        'div',
        { class: 'tool-group', role: 'group', 'aria-label': 'Drawing', 'data-flag': 'draw' },
        toggle,
        clear,
      ),
    );
  }

  if (flags.has('zoom_controls')) {
    const zin = iconButton('Zoom in', ICONS.zoomIn);
    const zout = iconButton('Zoom out', ICONS.zoomOut);
    zin.addEventListener('click', () => viewer.zoom(1 / ZOOM_STEP));
    zout.addEventListener('click', () => viewer.zoom(ZOOM_STEP));
    syncers.push(() => (zin.disabled = zout.disabled = viewer.isLocked));
    el.append(
      h(
        'div',
        { class: 'tool-group', role: 'group', 'aria-label': 'Zoom', 'data-flag': 'zoom_controls' },
        zin,
        zout,
      ),
    );
  }

  const reset = iconButton('Reset view', ICONS.reset);
  reset.addEventListener('click', () => {
    viewer.resetView();
    ctx.onChange();
  });
  syncers.push(() => (reset.disabled = viewer.isLocked));
  el.append(reset);

  const fullscreenAvailable =
    typeof document.documentElement.requestFullscreen === 'function' && document.fullscreenEnabled;
  const toggleFullscreen = () => {
    if (!flags.has('full_screen') || !fullscreenAvailable) return;
    if (document.fullscreenElement) void document.exitFullscreen();
    else void ctx.fullscreenTarget.requestFullscreen().catch(() => undefined);
  };
  if (flags.has('full_screen')) {
    const b = iconButton('Full screen', ICONS.fullscreen, {
      'data-flag': 'full_screen',
      'aria-pressed': 'false',
    });
    if (!fullscreenAvailable) {
      b.disabled = true;
      b.title = 'Full screen is not available here';
    }
    b.addEventListener('click', toggleFullscreen);
    const update = () => {
      const on = !!document.fullscreenElement;
      b.setAttribute('aria-pressed', String(on));
      b.setAttribute('aria-label', on ? 'Exit full screen' : 'Full screen');
      if (fullscreenAvailable) b.title = on ? 'Exit full screen' : 'Full screen';
      b.replaceChildren(icon(on ? ICONS.exitFullscreen : ICONS.fullscreen));
    };
    document.addEventListener('fullscreenchange', update);
    el.append(b);
  }

  const sync = () => {
    for (const s of syncers) s();
    ctx.onChange();
  };
  sync();
  return { el, togglePlay, toggleFullscreen, sync };
}

/**
 * Keyboard: arrow keys orbit, +/- zoom, R resets the view, F toggles full screen (when the
 * full_screen flag is on), Escape leaves drawing mode. Ignored while typing in a form field.
 */
export function bindKeyboard(
  viewer: Viewer3D,
  toolbar: Toolbar,
  draw: DrawLayer | null,
  onChange: () => void,
): void {
  const step = Math.PI / 24;
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (
      t &&
      (t.isContentEditable ||
        t instanceof HTMLTextAreaElement ||
        (t instanceof HTMLInputElement && t.type !== 'checkbox'))
    )
      return;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft':
        viewer.orbit(step, 0);
        break;
      case 'ArrowRight':
        viewer.orbit(-step, 0);
        break;
      case 'ArrowUp':
        viewer.orbit(0, step);
        break;
      case 'ArrowDown':
        viewer.orbit(0, -step);
        break;
      case '+':
      case '=':
        viewer.zoom(1 / ZOOM_STEP);
        break;
      case '-':
      case '_':
        viewer.zoom(ZOOM_STEP);
        break;
      case 'r':
      case 'R':
        viewer.resetView();
        break;
      case 'f':
      case 'F':
        toolbar.toggleFullscreen();
        break;
      case 'Escape':
        if (draw?.isActive) {
          draw.setActive(false);
          viewer.pauseInput('draw', false);
          toolbar.sync();
        } else handled = false;
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      onChange();
    }
  });
}
