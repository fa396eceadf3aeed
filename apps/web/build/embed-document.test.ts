import { describe, expect, it } from 'vitest';
import { embedDocument } from './embed-document';

describe('the embed document', () => {
  it("is index.html without the app's module preloads", () => {
    const index = [
      '<head>',
      '<script type="module" crossorigin src="/assets/index-a.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/entry-dep-b.js">',
      '    <link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/main-c.js">',
      '    <link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/react-d.js">',
      '</head>',
    ].join('\n');
    const embed = embedDocument(index);
    expect(embed).not.toContain('main-c.js');
    expect(embed).not.toContain('react-d.js');
    // The entry and its own imports stay.
    expect(embed).toContain('/assets/index-a.js');
    expect(embed).toContain('/assets/entry-dep-b.js');
  });

  it("carries the share and embed pages' styles, compacted, for the server-drawn markup", () => {
    const embed = embedDocument(
      '<head><title>Helix</title></head>',
      '/* a note */\n.embed-page {\n  inset: 0;\n}\n',
    );
    expect(embed).toContain('<style>.embed-page{inset:0;}</style></head>');
  });
});
