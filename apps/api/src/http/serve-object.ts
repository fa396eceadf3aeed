import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '@helix/server';
import type { ByteRange, ObjectInfo, Storage } from '@helix/server/storage/storage';

/**
 * Serves a stored object through the API (the local folder and S3 alike; docs/object-storage.md says
 * why this is streamed rather than redirected to a presigned URL):
 * - `Accept-Ranges: bytes`, a strong `ETag` and `Last-Modified` from the store;
 * - `If-None-Match` / `If-Modified-Since` answer 304 (Express's req.fresh);
 * - one `Range: bytes=a-b` (also `a-` and `-n`) answers 206 with Content-Range, read from the store as
 *   that range only; a range past the end is 416 with `Content-Range: bytes * /size`; several ranges or
 *   a malformed header get the whole object (200), as HTTP allows;
 * - `If-Range` with the current ETag (or a date not older than Last-Modified) keeps the range, anything
 *   else gets the whole, current object;
 * - HEAD answers the headers without reading the object.
 * A missing object is a 404 before anything is sent; a store that fails is 503 STORAGE_UNAVAILABLE.
 */
export async function serveStoredObject(
  req: Request,
  res: Response,
  storage: Storage,
  key: string,
  headers: Record<string, string>,
): Promise<void> {
  const info = await storage.stat(key);
  if (!info) throw AppError.notFound();
  res.set({ ...headers, 'Accept-Ranges': 'bytes', ETag: info.etag });
  if (info.lastModified) res.set('Last-Modified', info.lastModified.toUTCString());
  if (req.fresh) {
    res.status(304).end();
    return;
  }

  const range = wantedRange(req, info);
  if (range === 'unsatisfiable') {
    res.status(416).set('Content-Range', `bytes */${info.size}`).end();
    return;
  }
  const length = range ? range.end - range.start + 1 : info.size;
  if (range) res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  res.set('Content-Length', String(length));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const object = await storage.get(key, range ?? undefined);
  if (!object) throw AppError.notFound(); // deleted between the two calls
  await send(object.body, res);
}

function wantedRange(req: Request, info: ObjectInfo): ByteRange | 'unsatisfiable' | null {
  if (!req.headers.range || !ifRangeHolds(req.get('if-range'), info)) return null;
  const ranges = req.range(info.size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === undefined || ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/** No If-Range, or one that names what is stored now: an ETag (strong only) or a date. */
function ifRangeHolds(ifRange: string | undefined, info: ObjectInfo): boolean {
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === info.etag;
  const date = Date.parse(ifRange);
  return (
    !Number.isNaN(date) &&
    info.lastModified !== null &&
    Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(date / 1000)
  );
}

/** Streams a stored object; a client that goes away (or a store that fails) mid-way ends the response. */
async function send(body: Readable, res: Response): Promise<void> {
  try {
    await pipeline(body, res);
  } catch {
    body.destroy();
    if (!res.writableEnded) res.destroy();
  }
}
