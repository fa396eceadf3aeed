/**
 * What the recording is encoded as: WebM where the browser records WebM (Chrome, Edge, Firefox), MP4
 * where it records MP4 (Safari, e.g. on an iPad), as MediaRecorder.isTypeSupported says. VP8 before VP9:
 * it costs less to encode in real time on a modest laptop and every browser that records WebM plays it.
 */
export interface RecordingFormat {
  mimeType: string;
  extension: 'webm' | 'mp4';
}

const WITH_AUDIO = [
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm',
  'video/mp4;codecs=avc1.42E01E,mp4a.40.2',
  'video/mp4',
];
const VIDEO_ONLY = [
  'video/webm;codecs=vp8',
  'video/webm;codecs=vp9',
  'video/webm',
  'video/mp4;codecs=avc1.42E01E',
  'video/mp4',
];

/** The first supported format, or null when the browser records none of them. */
export function pickRecordingFormat(
  isTypeSupported: (mimeType: string) => boolean,
  withAudio: boolean,
): RecordingFormat | null {
  for (const mimeType of withAudio ? WITH_AUDIO : VIDEO_ONLY) {
    let ok = false;
    try {
      ok = isTypeSupported(mimeType);
    } catch {
      ok = false;
    }
    if (ok) return { mimeType, extension: mimeType.startsWith('video/mp4') ? 'mp4' : 'webm' };
  }
  return null;
}

/** 'Animal Cell (v2)' -> 'animal-cell-v2'; a name with nothing usable is 'model'. */
export function fileSlug(name: string | null | undefined): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'model';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<model-name>-<YYYY-MM-DD>.<ext>`, the date in the user's own time zone. */
export function recordingFileName(
  modelName: string | null | undefined,
  date: Date,
  extension: string,
): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${fileSlug(modelName)}-${day}.${extension}`;
}

/** Elapsed time as m:ss (or h:mm:ss), for the timer. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
