import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { LINK_PAGE_DATA_ID, type LinkPageProps } from '@helix/shared/link-page';
import { LINK_PAGE_TEXTS } from '../pages/share/link-page-texts';
import { renderLinkPage } from './link-page.server';

const header = {
  brandName: 'Hillside School',
  logo: 'https://cdn.example/logo.webp',
  colour: '#0a7d3b',
  nameColour: '#0a7d3b',
  title: 'Animal cell',
  sharedBy: 'Shared by Ada Teacher',
};
const FRAME = 'https://viewer.example/?model=a&subscription=b&viewer=vw1.x';

/** The props a share page carries for the browser (its JSON script). */
const markup = (html: string): string => html.slice(0, html.indexOf('<script'));
const carried = (html: string): unknown =>
  JSON.parse(
    new RegExp(`<script type="application/json" id="${LINK_PAGE_DATA_ID}">(.*)</script>$`).exec(html)![1]!,
  );

describe('the share page rendered by React on the server', () => {
  it("draws the school's logo, name and colours first, then the heading, the buttons and the frame", () => {
    const props: LinkPageProps = { kind: 'share', state: 'ready', header, frameUrl: FRAME };
    const html = renderLinkPage(props);
    expect(html.startsWith('<div id="root" data-link="ready"><div class="share-page">')).toBe(true);
    expect(html).toContain('<header class="share-header" style="border-bottom-color:#0a7d3b">');
    expect(html).toContain(
      '<span class="share-brand" data-testid="share-brand" style="color:#0a7d3b"><img src="https://cdn.example/logo.webp" alt="" height="36"/><span>Hillside School</span></span>',
    );
    expect(html).toContain('<h1 class="share-title">Animal cell</h1>');
    expect(html).toContain('data-testid="share-copy"');
    expect(html).toContain('data-testid="share-full-screen"');
    expect(html).toContain(
      '<iframe class="embed-frame" title="Animal cell viewer" allow="fullscreen; xr-spatial-tracking; autoplay" ' +
        'src="https://viewer.example/?model=a&amp;subscription=b&amp;viewer=vw1.x"></iframe>',
    );
    // The same props for the browser's hydration, with the texts it may say (it loads no catalogue).
    expect(carried(html)).toEqual({ ...props, texts: LINK_PAGE_TEXTS });
  });

  it('escapes a hostile school or model name everywhere, and sets a colour only when it is one', () => {
    const hostile = '</script><script>alert(1)</script><b>Hill</b>';
    const props: LinkPageProps = {
      kind: 'share',
      state: 'ready',
      header: {
        ...header,
        brandName: hostile,
        title: 'Cell "A" & <B>',
        colour: 'red;background:url(x)',
        nameColour: 'red;background:url(x)',
        sharedBy: 'Shared by <i>x</i>',
      },
      frameUrl: FRAME,
    };
    const html = renderLinkPage(props);
    expect(html).not.toMatch(/<b>|<i>|<B>|<script>alert/);
    // Only the JSON script closes a script element.
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('&lt;b&gt;Hill&lt;/b&gt;');
    expect(html).toContain('title="Cell &quot;A&quot; &amp; &lt;B&gt; viewer"');
    expect(markup(html)).not.toContain('background:url');
    expect(markup(html)).not.toContain('style=');
    expect(carried(html)).toEqual({ ...props, texts: LINK_PAGE_TEXTS });
  });

  it('draws the panel of a site the link is not allowed on, and the unavailable page with its hint', () => {
    const panel = renderLinkPage({ kind: 'share', state: 'not-allowed' });
    expect(panel).toContain('data-link="not-allowed"');
    expect(panel).toContain('data-testid="link-not-allowed"');
    expect(panel).toContain(MSG.embedHostNotAllowed);
    expect(panel).not.toContain('<iframe');
    const gone = renderLinkPage({ kind: 'share', state: 'unavailable' });
    expect(gone).toContain(`<h1 class="status-title">${MSG.linkUnavailable}</h1>`);
    expect(gone).toContain(MSG.linkUnavailableHint);
  });
});

describe('the embed page rendered on the server', () => {
  it("is the frame (with the model's name under it unless transparent), not hydrated (no props carried), neutral when unavailable", () => {
    expect(
      renderLinkPage({
        kind: 'embed',
        state: 'ready',
        modelName: 'Heart',
        frameUrl: 'https://viewer.example/?m=1',
        transparent: true,
      }),
    ).toBe(
      '<div id="root" data-link="ready"><div class="embed-page" data-transparent="true"><iframe class="embed-frame" title="Heart viewer" ' +
        'allow="fullscreen; xr-spatial-tracking; autoplay" src="https://viewer.example/?m=1"></iframe></div></div>',
    );
    // Opaque: the model's name under the frame until the viewer paints over it.
    expect(
      renderLinkPage({
        kind: 'embed',
        state: 'ready',
        modelName: 'Heart <3',
        frameUrl: 'https://viewer.example/?m=1',
        transparent: false,
      }),
    ).toBe(
      '<div id="root" data-link="ready"><div class="embed-page"><p class="embed-caption" aria-hidden="true">Heart &lt;3</p>' +
        '<iframe class="embed-frame" title="Heart &lt;3 viewer" ' +
        'allow="fullscreen; xr-spatial-tracking; autoplay" src="https://viewer.example/?m=1"></iframe></div></div>',
    );
    const gone = renderLinkPage({ kind: 'embed', state: 'unavailable' });
    expect(gone).toContain(MSG.linkUnavailable);
    expect(gone).not.toContain(MSG.linkUnavailableHint);
    expect(gone).not.toContain('<script');
  });
});
