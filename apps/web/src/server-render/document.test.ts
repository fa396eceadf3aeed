import { describe, expect, it } from 'vitest';
import { readPageData, type PageData } from './page-data';
import { PAGE_DATA_ID, serverRenderedDocument, pageAssetLinks } from './document';

const INDEX = `<!doctype html><html><head><title>Helix</title><link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/main-a.js"></head><body><div id="root"><p class="boot-screen" role="status">Loading…</p></div><script type="module" src="/assets/index.js"></script></body></html>`;

const LISTING = {
  search: '',
  sort: 'createdAt-Asc',
  models: [{ id: 1, name: 'Cell </script><script>alert(1)</script>' }],
  views: null,
  users: [],
};
const DATA: PageData = {
  tenant: 'demo',
  userId: 7,
  user: undefined,
  queries: {
    mutations: [],
    queries: [
      {
        queryKey: ['models', 'listing', { search: '', sort: 'createdAt-Asc' }],
        queryHash: '["models","listing",{"search":"","sort":"createdAt-Asc"}]',
        state: { data: LISTING, status: 'success' } as never,
        dehydratedAt: 1,
      },
    ],
  },
};

/** A document holding `html`, as far as readPageData looks. */
const docOf = (html: string) =>
  ({
    getElementById: (id: string) => {
      const match = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
      return match ? { textContent: match[1] } : null;
    },
  }) as unknown as Document;

describe('a server-rendered document', () => {
  it('marks the page, and carries its data as JSON no markup in it can end', () => {
    const html = serverRenderedDocument(
      INDEX,
      { html: '<title>Models · Helix</title><main>grid</main>', css: '.g{}' },
      'home',
      DATA,
    );
    expect(html).toContain('<div id="root" data-server-rendered="home"><main>grid</main></div>');
    expect(html).toContain('<title>Models · Helix</title>');
    // One data script, and the model name's "</script>" did not close it.
    expect(html.match(/<script type="application\/json"/g)).toHaveLength(1);
    expect(html).not.toContain('</script><script>alert(1)');
    expect(readPageData(docOf(html))).toEqual(DATA);
  });

  it("keeps the app's module preloads: the page is hydrated as soon as the code has loaded", () => {
    const home = serverRenderedDocument(INDEX, { html: '<main></main>', css: '' }, 'home', DATA);
    expect(home).not.toContain('app-preloads');
    expect(home.match(/main-a\.js/g)).toHaveLength(1);
  });

  it("puts the first screen's image preloads ahead of the app's script and module preloads", () => {
    const image = '<link rel="preload" as="image" href="/api/files/images/cell.webp" fetchPriority="high"/>';
    const html = serverRenderedDocument(
      INDEX,
      {
        html: `<title>Models · Helix</title>${image}<main><img src="/api/files/images/cell.webp"></main>`,
        css: '',
        links: '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/page-a.js">',
      },
      'home',
      DATA,
    );
    const at = (needle: string) => html.indexOf(needle);
    expect(html.match(/cell\.webp" fetchPriority/g)).toHaveLength(1);
    expect(at(image)).toBeGreaterThan(0);
    expect(at(image)).toBeLessThan(at('main-a.js'));
    expect(at(image)).toBeLessThan(at('page-a.js'));
    expect(at(image)).toBeLessThan(at('</head>'));
    // A script in the body (index.html's may sit there) is not a place in the head.
    const bodyScript = serverRenderedDocument(
      '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>',
      { html: `${image}<main></main>`, css: '' },
      'home',
    );
    expect(bodyScript.indexOf(image)).toBeLessThan(bodyScript.indexOf('</head>'));
    expect(html).toContain('<title>Models · Helix</title>');
  });

  it('carries no data script for a page without data', () => {
    expect(
      serverRenderedDocument(INDEX, { html: '<form id="login"></form>', css: '' }, 'login'),
    ).not.toContain(PAGE_DATA_ID);
  });

  it('reads nothing from a page without data, or with data that is not what it should be', () => {
    const page = (json: string) =>
      docOf(`<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`);
    expect(readPageData(docOf(INDEX))).toBeNull();
    expect(readPageData(page('{not json'))).toBeNull();
    expect(readPageData(page(JSON.stringify({ ...DATA, tenant: 3 })))).toBeNull();
    expect(readPageData(page(JSON.stringify({ ...DATA, userId: '7' })))).toBeNull();
    // Query state that is not a dehydrated state is left out.
    expect(
      readPageData(page(JSON.stringify({ ...DATA, queries: { queries: {} } })))?.queries,
    ).toBeUndefined();
  });

  it("carries a page's query answers and whose they are, and reads nothing that is not what it should be", () => {
    const queries = { mutations: [], queries: [] };
    const data = { tenant: 'demo', userId: 7, queries };
    const html = serverRenderedDocument(INDEX, { html: '<main></main>', css: '' }, 'users-list', data);
    expect(html).toContain('<div id="root" data-server-rendered="users-list">');
    expect(readPageData(docOf(html))).toEqual({ ...data, user: undefined });
    const page = (json: string) =>
      docOf(`<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`);
    expect(readPageData(page('3'))).toBeNull();
    expect(readPageData(page(JSON.stringify({ ...data, userId: '7' })))).toBeNull();
    expect(readPageData(page('{no'))).toBeNull();
    // A public page (the plans) is rendered for nobody.
    expect(readPageData(page(JSON.stringify({ queries })))).toEqual({
      tenant: undefined,
      userId: undefined,
      queries,
      user: undefined,
    });
  });
});

describe('pageAssetLinks', () => {
  const index =
    '<head><link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/react-1.js"><script type="module" src="/assets/index-2.js"></script></head>';

  it("preloads the page's chunks index.html does not, and marks its inlined stylesheets as present", () => {
    const links = pageAssetLinks(index, {
      scripts: ['assets/react-1.js', 'assets/index-2.js', 'assets/models.page-3.js'],
      styles: ['assets/models-4.css'],
    });
    expect(links).toBe(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/models.page-3.js">' +
        '<link rel="stylesheet" href="/assets/models-4.css" disabled>',
    );
  });
});
