import { describe, expect, it } from 'vitest';
import { embedSnippet, isPlausibleToken, linkFor, safeFrameUrl } from './share-links';

describe('linkFor', () => {
  it('builds share and embed links on this origin', () => {
    expect(linkFor('share', 'abc123', 'https://helix.test')).toBe('https://helix.test/share/abc123');
    expect(linkFor('embed', 'abc123', 'https://helix.test/')).toBe('https://helix.test/embed/abc123');
  });
});

describe('embedSnippet', () => {
  it('is an iframe with the link and an escaped title', () => {
    const html = embedSnippet('https://helix.test/embed/abc', 'Heart "big" <b> viewer');
    expect(html).toContain('<iframe src="https://helix.test/embed/abc"');
    expect(html).toContain('title="Heart &quot;big&quot; &lt;b&gt; viewer"');
    expect(html).toContain('allowfullscreen></iframe>');
  });
});

describe('isPlausibleToken', () => {
  it('accepts url-safe tokens', () => {
    expect(isPlausibleToken('abcDEF123_-.~')).toBe(true);
    expect(isPlausibleToken('a'.repeat(64))).toBe(true);
  });
  it('refuses malformed ones', () => {
    expect(isPlausibleToken(undefined)).toBe(false);
    expect(isPlausibleToken('')).toBe(false);
    expect(isPlausibleToken('abc')).toBe(false);
    expect(isPlausibleToken('has space123')).toBe(false);
    expect(isPlausibleToken('<script>alert(1)</script>')).toBe(false);
    expect(isPlausibleToken('%00%00%00%00')).toBe(false);
    expect(isPlausibleToken('a'.repeat(201))).toBe(false);
  });
});

describe('safeFrameUrl', () => {
  const origin = 'https://helix.test';
  it('accepts http(s) and resolves relative addresses', () => {
    expect(safeFrameUrl('https://viewer.test/?model=x', origin)).toBe('https://viewer.test/?model=x');
    expect(safeFrameUrl('/viewer/?model=x', origin)).toBe('https://helix.test/viewer/?model=x');
  });
  it('refuses scripts, data and garbage', () => {
    expect(safeFrameUrl('javascript:alert(1)', origin)).toBeNull();
    expect(safeFrameUrl('data:text/html,<b>x</b>', origin)).toBeNull();
    expect(safeFrameUrl('', origin)).toBeNull();
    expect(safeFrameUrl(undefined, origin)).toBeNull();
    expect(safeFrameUrl(42, origin)).toBeNull();
  });
});
