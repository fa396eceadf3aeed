import { MSG } from '@helix/shared/messages';
import type { Viewer3D } from '../scene/viewer-3d.ts';
import { h, ICONS } from '../ui/dom.ts';
import { panel } from '../ui/panels.ts';
import type { ViewerLessonScene } from './lesson-scene.ts';
import type { Cutaway } from './lesson-view.ts';
import type { PointerTool } from './pointer-tool.ts';

/** The leader's palette (#rrggbb, as LessonView's colours), named from the message catalogue. */
const PALETTE: [keyof typeof MSG.viewerColourNames, string][] = [
  ['red', '#e53935'],
  ['orange', '#fb8c00'],
  ['yellow', '#fdd835'],
  ['green', '#43a047'],
  ['blue', '#1e88e5'],
  ['purple', '#8e24aa'],
];
const AXES = ['x', 'y', 'z'] as const;

export interface LessonToolsOptions {
  viewer: Viewer3D;
  scene: ViewerLessonScene;
  pointer: PointerTool;
  /** Only the leader points (a free pupil's pointer would show nobody anything). */
  canPoint: () => boolean;
  collapsed: boolean;
  /** A tool changed the view: the other controls re-read it. */
  onChange: () => void;
}

/**
 * The lesson's panel: a cut-away (an axis, or off, and a position along it), a colour for the
 * selected part (a palette, and its own colour back) and the pointer. Every control is a native
 * form control with a label, so keyboards reach and work them. Hidden while following (the view is
 * the leader's); a free pupil uses it on their own view (nothing is reported), the pointer excepted.
 */
export function lessonTools(options: LessonToolsOptions): { el: HTMLElement; sync(): void } {
  const { viewer, scene, pointer, onChange } = options;

  // ---- cut-away: off / x / y / z and a slider (-1 to 1 of the model's extent)
  const radios = new Map<Cutaway['axis'] | 'off', HTMLInputElement>();
  const axisChoice = (value: Cutaway['axis'] | 'off', text: string) => {
    const input = h('input', { type: 'radio', name: 'lesson-cutaway-axis', value });
    radios.set(value, input);
    return h('label', { class: 'choice' }, input, h('span', {}, text));
  };
  const slider = h('input', {
    type: 'range',
    id: 'lesson-cutaway-position',
    min: -1,
    max: 1,
    step: 0.02,
    value: 0,
  });
  const sliderLabel = h('label', { for: slider.id }, MSG.viewerCutawayPosition);
  const chosenAxis = (): Cutaway['axis'] | null => {
    for (const axis of AXES) if (radios.get(axis)!.checked) return axis;
    return null;
  };
  const applyCutaway = () => {
    const axis = chosenAxis();
    scene.setCutaway(axis ? { axis, offset: Number(slider.value) } : null);
    onChange();
  };
  const cutaway = h(
    'fieldset',
    { class: 'lesson-cutaway' },
    h('legend', {}, MSG.viewerCutaway),
    h(
      'div',
      { class: 'choices' },
      axisChoice('off', MSG.viewerCutawayOff),
      ...AXES.map((axis) => axisChoice(axis, axis.toUpperCase())),
    ),
    sliderLabel,
    slider,
  );
  for (const input of radios.values()) input.addEventListener('change', applyCutaway);
  slider.addEventListener('input', applyCutaway);

  // ---- the selected part's colour
  const colourHint = h('p', { class: 'lesson-hint' });
  const swatches = PALETTE.map(([name, hex]) => {
    const b = h('button', {
      type: 'button',
      class: 'swatch',
      'data-colour': hex,
      'aria-label': MSG.viewerColourNames[name],
      title: MSG.viewerColourNames[name],
      'aria-pressed': 'false',
      style: `--swatch: ${hex}`,
    });
    b.addEventListener('click', () => setColour(hex));
    return b;
  });
  const own = h('button', { type: 'button', class: 'link-button' }, MSG.viewerPartColourOwn);
  own.addEventListener('click', () => setColour(null));
  const setColour = (hex: string | null) => {
    const selected = scene.selected();
    if (!selected || viewer.isLocked) return;
    scene.setPartColour(selected, hex);
    onChange();
  };
  const colours = h(
    'fieldset',
    { class: 'lesson-colours' },
    h('legend', {}, MSG.viewerPartColour),
    colourHint,
    h('div', { class: 'swatches' }, ...swatches, own),
  );

  // ---- the pointer
  const pointerHelp = h('p', { class: 'lesson-hint', id: 'lesson-pointer-help' }, MSG.viewerPointerHelp);
  const pointerButton = h(
    'button',
    {
      type: 'button',
      class: 'button lesson-pointer',
      'aria-pressed': 'false',
      'aria-describedby': pointerHelp.id,
    },
    MSG.viewerPointer,
  );
  pointerButton.addEventListener('click', () => {
    const selected = scene.selected();
    pointer.setActive(!pointer.active, selected ? scene.anchorOf(selected) : null);
  });

  const body = h(
    'div',
    { class: 'lesson-tools' },
    cutaway,
    colours,
    h('div', {}, pointerButton, pointerHelp),
  );
  const el = panel('lesson', MSG.viewerLesson, ICONS.lesson, body, options.collapsed);

  const sync = () => {
    const locked = viewer.isLocked;
    // A follower's view is the leader's: the panel makes room for the model meanwhile.
    el.hidden = locked;
    const cut = scene.cutaway();
    for (const [value, input] of radios) {
      input.checked = (cut?.axis ?? 'off') === value;
      input.disabled = locked;
    }
    if (cut) slider.value = String(cut.offset);
    slider.disabled = locked || !cut;
    slider.setAttribute(
      'aria-valuetext',
      cut ? `${cut.axis.toUpperCase()} ${cut.offset.toFixed(2)}` : MSG.viewerCutawayOff,
    );

    const selected = scene.selected();
    const current = selected ? (scene.colours()[selected] ?? null) : null;
    colourHint.textContent = selected ?? MSG.viewerPartColourNone;
    for (const b of swatches) {
      b.disabled = locked || !selected;
      b.setAttribute('aria-pressed', String(b.dataset.colour === current));
    }
    own.disabled = locked || !current;

    pointerButton.setAttribute('aria-pressed', String(pointer.active));
    pointerButton.disabled = !options.canPoint();
  };
  sync();
  return { el, sync };
}
