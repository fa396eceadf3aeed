import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { splicedGzip } from './spliced-gzip.ts';

describe('a spliced gzip answer', () => {
  it('unzips to the whole page, whatever the piece, reusing the parts around it', () => {
    const head = `<!doctype html><title>École</title>${'<p>a paragraph</p>'.repeat(200)}<iframe src="x?viewer=`;
    const tail = `"></iframe>${'<div>more</div>'.repeat(100)}</html>`;
    for (const piece of ['vw1.abc.def', '', 'é'.repeat(300)]) {
      const zipped = splicedGzip([head, tail], piece);
      expect(gunzipSync(zipped).toString('utf8')).toBe(head + piece + tail);
      expect(zipped.length).toBeLessThan(Buffer.byteLength(head + piece + tail) / 3 + piece.length * 2);
    }
  });

  it('puts the piece in every place the page has for it, and a page without one whole', () => {
    const parts = ['<p>a', `${'<b>between</b>'.repeat(50)}`, '', 'end</p>'];
    const zipped = splicedGzip(parts, 'vw1.token');
    expect(gunzipSync(zipped).toString('utf8')).toBe(parts.join('vw1.token'));
    expect(gunzipSync(splicedGzip(['<p>whole</p>'], '')).toString('utf8')).toBe('<p>whole</p>');
  });
});
