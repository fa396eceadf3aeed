import { MSG } from '@helix/shared/messages';
import { FrameCompositor } from '../record/frame-compositor.ts';
import type { RecordPermission } from '../record/record-permission.ts';
import { formatElapsed, pickRecordingFormat, recordingFileName } from '../record/recording-format.ts';
import { ScreenRecording, type RecordingResult } from '../record/screen-recording.ts';
import { h } from './dom.ts';

type RecordingState = 'idle' | 'starting' | 'recording' | 'ready';

export interface RecordControlOptions {
  stage: HTMLElement;
  modelName: string;
  /** The server's word at the moment Record is pressed (GET /api/viewer/record). */
  ask(): Promise<RecordPermission>;
  onState(state: RecordingState): void;
}

const recordingSupported = (): boolean =>
  typeof MediaRecorder !== 'undefined' &&
  typeof HTMLCanvasElement.prototype.captureStream === 'function' &&
  typeof MediaRecorder.isTypeSupported === 'function';

/**
 * The Record control (portal viewer modal only, when the API's answer says `record`): Record / Stop,
 * an optional microphone narration, the elapsed time against the maximum, then a preview with Download
 * (`<model>-<YYYY-MM-DD>.webm|mp4`) and Discard. Every failure is a message in the control; the viewer
 * itself keeps working.
 */
export function recordControl(options: RecordControlOptions): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'rec-button', 'aria-pressed': 'false' },
    MSG.recordStart,
  );
  const narrate = h('input', { type: 'checkbox', class: 'rec-narrate' });
  const narrateLabel = h('label', { class: 'rec-option' }, narrate, MSG.recordNarration);
  const time = h('span', { class: 'rec-time', role: 'timer', 'aria-label': 'Elapsed recording time' });
  time.hidden = true;
  const message = h('p', { class: 'rec-message', role: 'alert' });
  message.hidden = true;
  const video = h('video', {
    controls: true,
    playsinline: true,
    preload: 'metadata',
    'aria-label': 'Recording preview',
  });
  const download = h('a', { class: 'rec-download', role: 'button' }, MSG.recordDownload);
  const discard = h('button', { type: 'button', class: 'rec-discard' }, MSG.recordDiscard);
  const preview = h(
    'div',
    { class: 'rec-preview', role: 'region', 'aria-label': MSG.recordReady },
    h('p', { class: 'rec-ready' }, MSG.recordReady),
    video,
    h('div', { class: 'rec-actions' }, download, discard),
  );
  preview.hidden = true;
  const el = h(
    'div',
    { class: 'recorder', 'data-feature': 'record', role: 'group', 'aria-label': 'Screen recording' },
    h('div', { class: 'rec-bar' }, button, narrateLabel, time),
    message,
    preview,
  );

  let state: RecordingState = 'idle';
  let recording: ScreenRecording | null = null;
  let compositor: FrameCompositor | null = null;
  let objectUrl: string | null = null;
  let maxMs = 0;

  const setState = (next: RecordingState) => {
    state = next;
    button.disabled = next === 'starting';
    button.textContent = next === 'recording' ? MSG.recordStop : MSG.recordStart;
    button.setAttribute('aria-pressed', String(next === 'recording'));
    el.dataset.state = next;
    narrate.disabled = next === 'recording' || next === 'starting';
    time.hidden = next !== 'recording';
    options.onState(next);
  };
  const say = (text: string | null) => {
    message.textContent = text ?? '';
    message.hidden = !text;
  };
  const clearPreview = () => {
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = null;
    video.removeAttribute('src');
    video.load();
    preview.hidden = true;
  };

  const done = (result: RecordingResult) => {
    compositor?.stop();
    compositor = null;
    recording = null;
    if (result.reason === 'max') say(MSG.recordMaxReached(Math.round(maxMs / 60_000)));
    else if (result.reason === 'hidden') say(MSG.recordHidden);
    else if (result.reason === 'error') say(MSG.recordFailed);
    if (!result.blob.size) {
      say(MSG.recordFailed);
      setState('idle');
      return;
    }
    objectUrl = URL.createObjectURL(result.blob);
    video.src = objectUrl;
    download.setAttribute('href', objectUrl);
    download.setAttribute(
      'download',
      recordingFileName(options.modelName, new Date(), result.format.extension),
    );
    preview.hidden = false;
    setState('ready');
  };

  const start = async () => {
    say(null);
    clearPreview();
    if (!recordingSupported()) {
      say(MSG.recordUnsupported);
      return;
    }
    setState('starting');
    const permission = await options.ask();
    if (!permission.ok) {
      say(permission.message);
      setState('idle');
      return;
    }
    maxMs = permission.maxSeconds * 1000;
    let mic: MediaStream | null = null;
    if (narrate.checked) {
      try {
        mic = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true },
        });
      } catch {
        say(MSG.recordMicDenied);
      }
    }
    const format = pickRecordingFormat((t) => MediaRecorder.isTypeSupported(t), !!mic);
    if (!format) {
      mic?.getTracks().forEach((t) => t.stop());
      say(MSG.recordUnsupported);
      setState('idle');
      return;
    }
    try {
      compositor = new FrameCompositor(options.stage);
      compositor.start();
      const video = compositor.canvas.captureStream(30);
      const stream = new MediaStream([...video.getVideoTracks(), ...(mic?.getAudioTracks() ?? [])]);
      const limit = formatElapsed(maxMs);
      recording = new ScreenRecording({
        stream,
        format,
        maxMs,
        onTick: (ms) => (time.textContent = `${formatElapsed(ms)} / ${limit}`),
        onDone: done,
      });
      setState('recording');
    } catch (e) {
      console.error('[viewer] recording failed to start', e);
      compositor?.stop();
      compositor = null;
      mic?.getTracks().forEach((t) => t.stop());
      say(MSG.recordFailed);
      setState('idle');
    }
  };

  button.addEventListener('click', () => {
    if (state === 'recording') recording?.stop('user');
    else if (state !== 'starting') void start();
  });
  discard.addEventListener('click', () => {
    clearPreview();
    say(null);
    setState('idle');
    button.focus();
  });
  // Keys pressed in the control are not the viewer's shortcuts (R resets the view, F goes full screen).
  el.addEventListener('keydown', (e) => e.stopPropagation());
  setState('idle');
  return el;
}
