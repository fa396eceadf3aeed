/**
 * What an audit event may keep of a request's fields (docs/audit-log.md): secrets never, file bytes
 * never, long texts and lists cut short. A field is a secret by its name.
 */
const SECRET_NAME =
  /pass(word)?|secret|token|key|hash|card|cvc|cvv|iban|signature|client_?secret|authorization/i;
/** Data URLs and base64 images (a branding logo sent as text) are file bytes. */
const FILE_TEXT = /^data:[^,]{0,100},/i;

export const REDACTED = '[redacted]';
export const TEXT_MAX = 500;
export const LIST_MAX = 20;
const DEPTH_MAX = 6;

export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') {
    if (FILE_TEXT.test(value)) return `[file: ${value.length} characters]`;
    return value.length > TEXT_MAX ? `${value.slice(0, TEXT_MAX)}… (${value.length} characters)` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[file: ${value.byteLength} bytes]`;
  if (depth >= DEPTH_MAX) return '[…]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, LIST_MAX).map((v) => redact(v, depth + 1));
    return value.length > LIST_MAX ? [...kept, `… and ${value.length - LIST_MAX} more`] : kept;
  }
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined && typeof v !== 'function')
        .map(([k, v]) => [k, SECRET_NAME.test(k) ? REDACTED : redact(v, depth + 1)]),
    );
  }
  return String(value);
}
