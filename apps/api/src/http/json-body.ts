import express, { type RequestHandler } from 'express';

/** JSON nested deeper than this (arrays and objects) is refused with 400 BODY_TOO_DEEP. */
export const JSON_MAX_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of arrays and objects in JSON text, read from the raw bytes before parsing (one
 * pass, no recursion), so no later recursive walk of the body (hashing, validation, logging) can
 * overflow the stack. Stops early once past `max`. Brackets inside strings do not count.
 */
function jsonDepth(buf: Uint8Array, max = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i += 1) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return deepest;
}

/** The error the error handler answers as 400 BODY_TOO_DEEP (body-parser keeps its status and type). */
class BodyTooDeepError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';
  constructor() {
    super(`JSON body nested deeper than ${JSON_MAX_DEPTH}`);
  }
}

/** express.json with the one depth rule of every route that takes a JSON body. */
export function jsonBody(options: { limit: string }): RequestHandler {
  return express.json({
    limit: options.limit,
    verify: (_req, _res, buf) => {
      if (jsonDepth(buf, JSON_MAX_DEPTH) > JSON_MAX_DEPTH) throw new BodyTooDeepError();
    },
  });
}
