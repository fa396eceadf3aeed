import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A gzip answer for a page that is the same for every load but for one short piece (the share and
 * embed pages: all but the viewer token in the frame's address), without compressing per request.
 * The parts around the piece are compressed once (raw deflate ending in a full flush, so nothing
 * refers across the cut and the cut is byte-aligned) and kept; each answer is those bytes with the
 * piece between them as a stored (uncompressed) deflate block, in the gzip wrapper with the CRC-32 of
 * the whole. Compressing the page per load was half the API's CPU per page load (docs/benchmarks.md).
 */

/** Compressed parts kept (one per link page); the oldest goes first. */
const KEPT = 1_000;
const parts = new Map<string, { head: Buffer; tail: Buffer; headCrc: number }>();

const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED = 0xffff;

function partsOf(head: string, tail: string, key: string) {
  let kept = parts.get(key);
  if (!kept) {
    const headBytes = Buffer.from(head);
    kept = {
      head: deflateRawSync(headBytes, { finishFlush: constants.Z_FULL_FLUSH }),
      tail: deflateRawSync(Buffer.from(tail)),
      headCrc: crc32(headBytes),
    };
    if (parts.size >= KEPT) parts.delete(parts.keys().next().value!);
    parts.set(key, kept);
  }
  return kept;
}

/**
 * The gzip bytes of `head + piece + tail`; `piece` is at most 64 kB. `key` names head and tail (the
 * same key must always mean the same parts); by default they are their own key.
 */
export function splicedGzip(head: string, piece: string, tail: string, key = `${head}\u0000${tail}`): Buffer {
  const kept = partsOf(head, tail, key);
  const middle = Buffer.from(piece);
  if (middle.length > MAX_STORED) throw new Error('a spliced piece is at most 64 kB');
  // A stored block: BFINAL 0, BTYPE 00 (byte-aligned after the full flush), LEN, NLEN, the bytes.
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(middle.length, 1);
  stored.writeUInt16LE(~middle.length & 0xffff, 3);
  const tailBytes = Buffer.from(tail);
  const crc = crc32(tailBytes, crc32(middle, kept.headCrc));
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((Buffer.byteLength(head) + middle.length + tailBytes.length) >>> 0, 4);
  return Buffer.concat([HEADER, kept.head, stored, middle, kept.tail, trailer]);
}
