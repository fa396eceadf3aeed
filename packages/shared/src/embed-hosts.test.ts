import { describe, expect, it } from 'vitest';
import { frameAncestorSources, hostMatches, hostOf, normalizeHostPattern } from './embed-hosts.ts';
import { MSG } from './messages.ts';
import { EmbedAllowedHosts } from './schemas/embed-hosts.ts';
import { oembedFrameSize } from './schemas/oembed.ts';

describe('normalizeHostPattern', () => {
  it('keeps domains and leading wildcards in their stored form (ASCII, lower case)', () => {
    const pattern = (v: string) => {
      const r = normalizeHostPattern(v);
      return r.ok ? r.pattern : r.message;
    };
    expect(pattern('School.ORG')).toBe('school.org');
    expect(pattern(' *.school.org. ')).toBe('*.school.org');
    expect(pattern('école.fr')).toBe('xn--cole-9oa.fr');
    expect(pattern('*.bücher.de')).toBe('*.xn--bcher-kva.de');
    expect(pattern('intranet')).toBe('intranet');
    expect(pattern('192.168.1.20')).toBe('192.168.1.20');
  });

  it('refuses addresses, ports, misplaced or over-broad wildcards and bad labels, naming the entry', () => {
    const message = (v: string) => {
      const r = normalizeHostPattern(v);
      return r.ok ? `accepted as ${r.pattern}` : r.message;
    };
    expect(message('https://school.org')).toBe(MSG.embedHostNotDomain('https://school.org'));
    expect(message('school.org/x')).toBe(MSG.embedHostNotDomain('school.org/x'));
    expect(message('school.org:443')).toBe(MSG.embedHostNotDomain('school.org:443'));
    expect(message('[::1]')).toBe(MSG.embedHostNotDomain('[::1]'));
    expect(message('sch ool.org')).toBe(MSG.embedHostNotDomain('sch ool.org'));
    expect(message('*school.org')).toBe(MSG.embedHostWildcard('*school.org'));
    expect(message('*.*.school.org')).toBe(MSG.embedHostWildcard('*.*.school.org'));
    expect(message('*.org')).toBe(MSG.embedHostTooBroad('*.org'));
    expect(message('a..org')).toBe(MSG.embedHostInvalid('a..org'));
    expect(message('xn--.org')).toBe(MSG.embedHostInvalid('xn--.org'));
    expect(message('   ')).toBe(MSG.embedHostEmpty);
  });
});

describe('hostMatches', () => {
  const patterns = ['school.org', '*.district.org'];
  it("matches as CSP's frame-ancestors does: exact names, and a wildcard over subdomains only", () => {
    expect(hostMatches('school.org', patterns)).toBe(true);
    expect(hostMatches('SCHOOL.ORG.', patterns)).toBe(true);
    expect(hostMatches('www.school.org', patterns)).toBe(false);
    expect(hostMatches('a.district.org', patterns)).toBe(true);
    expect(hostMatches('a.b.district.org', patterns)).toBe(true);
    expect(hostMatches('district.org', patterns)).toBe(false);
    expect(hostMatches('evildistrict.org', patterns)).toBe(false);
    expect(hostMatches('district.org.evil.com', patterns)).toBe(false);
    expect(hostMatches('school.org', [])).toBe(false);
  });

  it("reads an origin's host, and nothing from other schemes or opaque origins", () => {
    expect(hostOf('https://a.school.org:8443/x?y')).toBe('a.school.org');
    expect(hostOf('https://école.fr')).toBe('xn--cole-9oa.fr');
    expect(hostOf('null')).toBeNull();
    expect(hostOf('file:///etc/passwd')).toBeNull();
    expect(hostOf('chrome-extension://abc')).toBeNull();
  });

  it('gives frame-ancestors sources over both schemes and any port', () => {
    expect(frameAncestorSources(['school.org', '*.district.org'])).toEqual([
      'https://school.org:*',
      'http://school.org:*',
      'https://*.district.org:*',
      'http://*.district.org:*',
    ]);
  });
});

describe('EmbedAllowedHosts', () => {
  it('normalises, drops duplicates and reports each bad entry at its index', () => {
    expect(EmbedAllowedHosts.parse(['School.org', 'school.org.', '*.a.org'])).toEqual([
      'school.org',
      '*.a.org',
    ]);
    const result = EmbedAllowedHosts.safeParse(['ok.org', 'http://bad.org']);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: [1],
      message: MSG.embedHostNotDomain('http://bad.org'),
    });
  });
});

describe('oembedFrameSize', () => {
  it('is the largest 4:3 frame within the maximums, never above 640 x 480 nor below 1 x 1', () => {
    expect(oembedFrameSize()).toEqual({ width: 640, height: 480 });
    expect(oembedFrameSize(300)).toEqual({ width: 300, height: 225 });
    expect(oembedFrameSize(undefined, 90)).toEqual({ width: 120, height: 90 });
    expect(oembedFrameSize(1000, 100)).toEqual({ width: 133, height: 100 });
    expect(oembedFrameSize(2)).toEqual({ width: 2, height: 1 });
    expect(oembedFrameSize(1, 1)).toEqual({ width: 1, height: 1 });
  });
});
