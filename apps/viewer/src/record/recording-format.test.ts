import { describe, expect, it } from 'vitest';
import { fileSlug, formatElapsed, pickRecordingFormat, recordingFileName } from './recording-format.ts';

describe('pickRecordingFormat', () => {
  it('prefers WebM (VP8) where the browser records WebM', () => {
    const chrome = (t: string) => t.startsWith('video/webm') || t.startsWith('video/mp4');
    expect(pickRecordingFormat(chrome, true)).toEqual({
      mimeType: 'video/webm;codecs=vp8,opus',
      extension: 'webm',
    });
    expect(pickRecordingFormat(chrome, false)).toEqual({
      mimeType: 'video/webm;codecs=vp8',
      extension: 'webm',
    });
  });

  it('records MP4 where only MP4 is supported (Safari)', () => {
    const safari = (t: string) => t.startsWith('video/mp4');
    expect(pickRecordingFormat(safari, true)).toEqual({
      mimeType: 'video/mp4;codecs=avc1.42E01E,mp4a.40.2',
      extension: 'mp4',
    });
    expect(pickRecordingFormat((t) => t === 'video/mp4', false)).toEqual({
      mimeType: 'video/mp4',
      extension: 'mp4',
    });
  });

  it('answers null when nothing is supported or the check throws', () => {
    expect(pickRecordingFormat(() => false, false)).toBeNull();
    expect(
      pickRecordingFormat(() => {
        throw new Error('no');
      }, true),
    ).toBeNull();
  });
});

describe('recordingFileName', () => {
  it('names the file after the model and the local date', () => {
    expect(recordingFileName('Animal Cell', new Date(2026, 10, 3, 23, 59), 'webm')).toBe(
      'animal-cell-2026-11-03.webm',
    );
    expect(recordingFileName('Cellule épithéliale (v2) — coupe', new Date(2026, 0, 9), 'mp4')).toBe(
      'cellule-epitheliale-v2-coupe-2026-01-09.mp4',
    );
  });

  it('falls back to "model" for a name with nothing usable', () => {
    expect(fileSlug('')).toBe('model');
    expect(fileSlug(null)).toBe('model');
    expect(fileSlug('***')).toBe('model');
    expect(fileSlug('a'.repeat(200))).toHaveLength(80);
  });
});

describe('formatElapsed', () => {
  it('shows m:ss, and h:mm:ss past an hour', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(3_999)).toBe('0:03');
    expect(formatElapsed(300_000)).toBe('5:00');
    expect(formatElapsed(3_661_000)).toBe('1:01:01');
  });
});
