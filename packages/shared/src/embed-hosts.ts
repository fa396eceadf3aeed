import { MSG } from './messages.ts';

/**
 * A link's embed allowlist (docs/links.md, "Where a link may be shown"): the host domains whose pages
 * may show it. A pattern is a domain (`school.org`) or a wildcard over its subdomains
 * (`*.school.org`), matched as CSP's `frame-ancestors` matches hosts, so the header the browser enforces
 * and the server's view counting agree: `school.org` is that host only, `*.school.org` any subdomain
 * of it but not `school.org` itself. Patterns are stored in ASCII (an IDN as punycode) and lower case.
 */

/** At most this many patterns per link. */
export const MAX_EMBED_HOSTS = 20;
/** The longest pattern (a DNS name is at most 253 characters, plus `*.`). */
const MAX_EMBED_HOST_LENGTH = 255;

export type HostPatternResult = { ok: true; pattern: string } | { ok: false; message: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The ASCII form of a host as browsers read it: WHATWG URL host parsing, the same in Node and every
 * browser (IDNA to punycode, lower case, full-width dots); null when it is not a host.
 */
function asciiHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

/**
 * One pattern as the owner typed it, checked and normalised: trimmed, lower case, a final dot
 * dropped, an IDN as punycode. Refused with a message that names it: a scheme, port, path or anything
 * else that is not a domain; a `*` anywhere but a leading `*.`; a wildcard over a whole top-level
 * domain (`*.org`) or an IP address.
 */
export function normalizeHostPattern(input: string): HostPatternResult {
  const raw = input.trim();
  if (raw === '') return { ok: false, message: MSG.embedHostEmpty };
  if (raw.length > MAX_EMBED_HOST_LENGTH)
    return { ok: false, message: MSG.embedHostInvalid(raw.slice(0, 40)) };
  // A scheme, user, port, path, query or fragment: the owner pasted an address, not a domain.
  if (/[/:@?#\\\s]/.test(raw)) return { ok: false, message: MSG.embedHostNotDomain(raw) };
  const wildcard = raw.startsWith('*.');
  const rest = (wildcard ? raw.slice(2) : raw).replace(/\.$/, '');
  if (rest.includes('*')) return { ok: false, message: MSG.embedHostWildcard(raw) };
  const host = asciiHost(rest);
  if (host === null || host === '') return { ok: false, message: MSG.embedHostInvalid(raw) };
  if (IPV4.test(host)) {
    return wildcard ? { ok: false, message: MSG.embedHostWildcard(raw) } : { ok: true, pattern: host };
  }
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, message: MSG.embedHostInvalid(raw) };
  }
  if (wildcard && labels.length < 2) return { ok: false, message: MSG.embedHostTooBroad(raw) };
  return { ok: true, pattern: wildcard ? `*.${host}` : host };
}

/** Whether `host` (a URL's hostname, already ASCII and lower case) matches one of `patterns`. */
export function hostMatches(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((p) =>
    p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p,
  );
}

/** The host of an origin or URL (`https://a.school.org:8443/x` -> `a.school.org`); null if it has none. */
export function hostOf(originOrUrl: string): string | null {
  try {
    const url = new URL(originOrUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * The `frame-ancestors` sources of an allowlist: each pattern over http and https and any port (a
 * school's site is one host whatever its port; a page on http may frame the portal's https page).
 */
export function frameAncestorSources(patterns: readonly string[]): string[] {
  return patterns.flatMap((p) => [`https://${p}:*`, `http://${p}:*`]);
}
