import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A gzip answer for a page that is the same for every load but for one short piece, which may stand
 * in several places (the share page: the viewer token in the frame's address and in the props the
 * browser hydrates with), without compressing per request. The parts around the piece are compressed
 * once (raw deflate, each but the last ending in a full flush, so nothing refers across a cut and every
 * cut is byte-aligned) and kept; each answer is those bytes with the piece between them as stored
 * (uncompressed) deflate blocks, in the gzip wrapper with the CRC-32 of the whole. Compressing the page
 * per load was half the API's CPU per page load (docs/benchmarks.md).
 */

/** Compressed parts kept (one per link page); the oldest goes first. */
const KEPT = 1_000;
interface Kept {
  deflated: Buffer[];
  /** The parts after the first, for the CRC (the first part's CRC is kept). */
  raw: Buffer[];
  firstCrc: number;
  length: number;
}
const kept = new Map<string, Kept>();

const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED = 0xffff;

function partsOf(parts: readonly string[], key: string): Kept {
  let found = kept.get(key);
  if (!found) {
    const bytes = parts.map((p) => Buffer.from(p));
    const last = bytes.length - 1;
    found = {
      // An empty part between two pieces is no bytes (deflating nothing would end the stream).
      deflated: bytes.map((b, i) =>
        i < last
          ? b.length > 0
            ? deflateRawSync(b, { finishFlush: constants.Z_FULL_FLUSH })
            : Buffer.alloc(0)
          : deflateRawSync(b),
      ),
      raw: bytes.slice(1),
      firstCrc: crc32(bytes[0]!),
      length: bytes.reduce((n, b) => n + b.length, 0),
    };
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, found);
  }
  return found;
}

/**
 * The gzip bytes of `parts` joined by `piece` (at most 64 kB), e.g. `[head, tail]` for head + piece +
 * tail. `key` names the parts (the same key must always mean the same parts); by default they are
 * their own key.
 */
export function splicedGzip(parts: readonly string[], piece: string, key = parts.join('\u0000')): Buffer {
  if (parts.length === 0) throw new Error('a spliced page has at least one part');
  const page = partsOf(parts, key);
  const middle = Buffer.from(piece);
  if (middle.length > MAX_STORED) throw new Error('a spliced piece is at most 64 kB');
  // A stored block: BFINAL 0, BTYPE 00 (byte-aligned after the full flush), LEN, NLEN, the bytes.
  const stored = Buffer.alloc(5 + middle.length);
  stored.writeUInt16LE(middle.length, 1);
  stored.writeUInt16LE(~middle.length & 0xffff, 3);
  middle.copy(stored, 5);
  let crc = page.firstCrc;
  const body: Buffer[] = [HEADER, page.deflated[0]!];
  page.raw.forEach((part, i) => {
    crc = crc32(part, crc32(middle, crc));
    body.push(stored, page.deflated[i + 1]!);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((page.length + middle.length * page.raw.length) >>> 0, 4);
  body.push(trailer);
  return Buffer.concat(body);
}
