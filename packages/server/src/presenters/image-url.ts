/** Images live in storage under `images/<name>`; the API serves them at /api/files/images/<name>. */
export const IMAGE_KEY_PREFIX = 'images/';

/** The name part of an image key: `<purpose>-<id>.<webp|png>`. */
export const IMAGE_NAME_PATTERN =
  /^(thumbnail|logo|loading|background|profile)-[A-Za-z0-9_-]{1,120}\.(webp|png)$/;

export const imageKeyOf = (name: string): string | null =>
  IMAGE_NAME_PATTERN.test(name) ? `${IMAGE_KEY_PREFIX}${name}` : null;

/**
 * The URL of a stored image. Image columns hold the storage key; a value that already is a URL or an
 * absolute path (e.g. set by hand) is passed through. `origin` makes it absolute (for the viewer host,
 * another origin); without it the path is root-relative (the portal is served by the API).
 */
export function imageUrl(value: string | null | undefined, origin = ''): string | null {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/')) return `${origin}${value}`;
  if (value.startsWith(IMAGE_KEY_PREFIX)) {
    return `${origin}/api/files/images/${encodeURIComponent(value.slice(IMAGE_KEY_PREFIX.length))}`;
  }
  return null;
}
