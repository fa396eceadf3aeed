import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { splicedGzip } from './spliced-gzip.ts';

describe('a spliced gzip answer', () => {
  it('unzips to the whole page, whatever the piece, reusing the parts around it', () => {
    const head = `<!doctype html><title>École</title>${'<p>a paragraph</p>'.repeat(200)}<iframe src="x?viewer=`;
    const tail = `"></iframe>${'<div>more</div>'.repeat(100)}</html>`;
    for (const piece of ['vw1.abc.def', '', 'é'.repeat(300)]) {
      const zipped = splicedGzip(head, piece, tail);
      expect(gunzipSync(zipped).toString('utf8')).toBe(head + piece + tail);
      expect(zipped.length).toBeLessThan(Buffer.byteLength(head + piece + tail) / 3 + piece.length * 2);
    }
  });
});
