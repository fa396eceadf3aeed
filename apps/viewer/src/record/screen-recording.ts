import fixWebmDuration from 'fix-webm-duration';
import type { RecordingFormat } from './recording-format.ts';

export type StopReason = 'user' | 'max' | 'hidden' | 'error';

export interface RecordingResult {
  blob: Blob;
  format: RecordingFormat;
  durationMs: number;
  reason: StopReason;
}

export interface RecordingOptions {
  /** The composited view (one video track), plus the microphone's track when narrating. */
  stream: MediaStream;
  format: RecordingFormat;
  maxMs: number;
  /** Called about four times a second with the elapsed time. */
  onTick(elapsedMs: number): void;
  /** Called once when the recording has ended, however it ended (the Stop button, the maximum, the tab hidden, an encoder error). */
  onDone(result: RecordingResult): void;
}

/**
 * One MediaRecorder session. It ends on stop(), at `maxMs`, when the tab is hidden (the browser stops
 * painting a hidden tab, so the rest would be a frozen frame), or on an encoder error; what was recorded
 * until then is kept. Chrome's WebM has no duration in its header (players show no length and cannot
 * seek): fix-webm-duration writes it in before the file is offered.
 */
export class ScreenRecording {
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private readonly started = performance.now();
  private reason: StopReason = 'user';
  private readonly timers: number[] = [];
  private readonly onVisibility = () => {
    if (document.visibilityState === 'hidden') this.stop('hidden');
  };

  constructor(private readonly options: RecordingOptions) {
    this.recorder = new MediaRecorder(options.stream, {
      mimeType: options.format.mimeType,
      videoBitsPerSecond: 4_000_000,
    });
    this.recorder.addEventListener('dataavailable', (e) => {
      if (e.data.size) this.chunks.push(e.data);
    });
    this.recorder.addEventListener('error', () => this.stop('error'));
    this.recorder.addEventListener('stop', () => void this.finish());
    document.addEventListener('visibilitychange', this.onVisibility);
    this.recorder.start(1000);
    this.timers.push(
      window.setInterval(() => options.onTick(this.elapsedMs), 250),
      window.setTimeout(() => this.stop('max'), options.maxMs),
    );
    options.onTick(0);
  }

  get elapsedMs(): number {
    return performance.now() - this.started;
  }

  stop(reason: StopReason = 'user'): void {
    if (this.recorder.state === 'inactive') return;
    this.reason = reason;
    this.recorder.stop();
  }

  private async finish(): Promise<void> {
    const durationMs = Math.min(this.elapsedMs, this.options.maxMs);
    for (const t of this.timers) {
      clearInterval(t);
      clearTimeout(t);
    }
    document.removeEventListener('visibilitychange', this.onVisibility);
    for (const track of this.options.stream.getTracks()) track.stop();
    const type = this.recorder.mimeType || this.options.format.mimeType;
    let blob = new Blob(this.chunks, { type });
    if (this.options.format.extension === 'webm') {
      try {
        blob = await fixWebmDuration(blob, durationMs, { logger: false });
      } catch {
        // The file still plays; only its length is unknown to players.
      }
    }
    this.options.onDone({ blob, format: this.options.format, durationMs, reason: this.reason });
  }
}
