import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { embeddedViewer } from './support/embedded-viewer.ts';
import { startHostServer } from './support/host-page.ts';

/**
 * A consumer's page on another origin (a blog, a learning platform) that turns a pasted link into
 * content through oEmbed: it asks GET /api/oembed for the link and inserts the answer's html. Served
 * by the test on 127.0.0.1 and opened under two names of it (Chromium resolves *.localhost to the
 * loopback address): a site the link allows, and one it does not.
 */
const consumerPage = (api: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Class blog</title></head>
<body>
  <label for="link">Paste a link</label> <input id="link" size="80"> <button id="go">Embed</button>
  <div id="out"></div>
  <script>
    document.getElementById('go').addEventListener('click', async () => {
      const url = document.getElementById('link').value.trim();
      const res = await fetch(${JSON.stringify(api)} + '/api/oembed?format=json&maxwidth=720&url=' + encodeURIComponent(url));
      const out = document.getElementById('out');
      if (!res.ok) { out.textContent = 'oEmbed ' + res.status; return; }
      const data = await res.json();
      out.dataset.title = data.title;
      out.dataset.author = data.author_name;
      out.innerHTML = data.html;
    });
  </script>
</body></html>`;

/** Pastes `url` into the consumer page at `origin` and waits for the embed it inserts. */
async function paste(page: Page, origin: string, url: string) {
  await page.goto(`${origin}/`);
  await page.getByLabel('Paste a link').fill(url);
  await page.getByRole('button', { name: 'Embed' }).click();
  await page.locator('#out iframe').waitFor();
}

/** The Links page's row of the link at `url`: its views and its sites. */
async function linkRow(owner: Page, url: string): Promise<{ views: string; text: string }> {
  await owner.goto('/user/settings/links');
  await owner.getByRole('table').waitFor();
  const key = await owner.evaluate(
    (wanted) =>
      Array.from(document.querySelectorAll('input'))
        .find((i) => i.value === wanted)
        ?.closest('tr')?.dataset.rowKey ?? null,
    url,
  );
  expect(key, `a row with ${url}`).not.toBeNull();
  const row = owner.locator(`tr[data-row-key="${key}"]`);
  // Views and sites are folded into the row's details at 1280 px: their cells are there, hidden.
  return {
    views: (await row.locator('td[data-label="Views"]').textContent()) ?? '',
    text: (await row.textContent()) ?? '',
  };
}

describe("a pasted share link through oEmbed, limited to the school's sites", () => {
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startHostServer>> | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  it('shows the model on an allowed site and counts it; another site shows the panel and counts nothing', async () => {
    const api = new URL(inject('apiUrl')).origin;
    host = await startHostServer({ '/': { type: 'text/html; charset=utf-8', body: consumerPage(api) } });
    const port = new URL(host.url).port;
    const allowedSite = `http://class.school.localhost:${port}`;
    const otherSite = `http://other.localhost:${port}`;

    // The owner makes a share link that only *.school.localhost may show (a wrong entry is refused
    // in the dialog, in words, before anything is sent).
    const owner = await newPage(browser);
    await logIn(owner.page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(owner.page, '/user/home');
    const share = owner.page.getByRole('button', { name: /^Share / }).first();
    const model = ((await share.getAttribute('aria-label')) ?? '').replace(/^Share /, '');
    await share.click();
    const dialog = owner.page.getByRole('dialog', { name: `Share ${model}` });
    const sites = dialog.getByLabel(MSG.embedHostsLabel);
    await sites.fill('https://school.localhost/lessons');
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    await dialog.getByText(MSG.embedHostNotDomain('https://school.localhost/lessons')).waitFor();
    await sites.fill('*.school.localhost');
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Share link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
    const url = await link.inputValue();
    const before = await linkRow(owner.page, url);
    expect(before.views).toBe('0');
    expect(before.text).toContain('*.school.localhost');

    // An allowed site: the pasted link becomes the model (title and school from the oEmbed answer).
    const teacher = await newPage(browser);
    await paste(teacher.page, allowedSite, url);
    const out = teacher.page.locator('#out');
    expect(await out.getAttribute('data-title')).toBe(model);
    expect(await out.getAttribute('data-author')).toBeTruthy();
    expect(await out.locator('iframe').getAttribute('width')).toBe('640');
    await embeddedViewer(teacher.page);
    await expect.poll(async () => (await linkRow(owner.page, url)).views, { timeout: 20_000 }).toBe('1');

    // Another site: the same answer, but the frame shows the panel, no viewer starts, nothing counts.
    const stranger = await newPage(browser);
    await paste(stranger.page, otherSite, url);
    const frame = stranger.page.frameLocator('#out iframe');
    await frame.getByTestId('link-not-allowed').waitFor();
    expect(await frame.getByRole('heading').innerText()).toBe(MSG.embedHostNotAllowed);
    const viewerOrigin = new URL(inject('viewerUrl')).origin;
    expect(stranger.page.frames().some((f) => f.url().startsWith(viewerOrigin))).toBe(false);
    // Opened on its own (not inside a site), the limited link shows the panel too.
    await stranger.page.goto(url);
    await stranger.page.getByTestId('link-not-allowed').waitFor();
    expect((await linkRow(owner.page, url)).views).toBe('1');

    await stranger.context.close();
    await teacher.context.close();
    await owner.context.close();
  });
});
