import { describe, expect, it } from 'vitest';
import { serverRenderedDocument, withGoogleFlag } from '../src/server-render/document';
import { LOGIN_VARIANTS, SIGNUP_VARIANTS } from './render-login';

const INDEX = `<!doctype html><html><head><title>Helix</title></head><body><div id="root"><p class="boot-screen" role="status">Loading…</p></div><script type="module" src="/assets/index.js"></script></body></html>`;

describe('the login document rendered at build time', () => {
  it('puts the page in #root, its title and hoisted links in the head, and its styles last in the head', () => {
    const html = serverRenderedDocument(
      INDEX,
      {
        html: '<link rel="preload" as="image" href="/favicon.svg"/><title>Login · Helix</title><form id="login">$&</form>',
        css: '.a{color:red}',
      },
      'login',
    );
    expect(html).toContain('<title>Login · Helix</title>');
    expect(html).not.toContain('<title>Helix</title>');
    expect(html).toMatch(
      /<link rel="preload" as="image" href="\/favicon.svg"\/>\s*<style>\.a\{color:red\}<\/style>\s*<\/head>/,
    );
    // The markup is taken literally (no $& replacement patterns), and the boot screen is gone.
    expect(html).toContain('<div id="root" data-server-rendered="login"><form id="login">$&</form></div>');
    expect(html).not.toContain('boot-screen');
    expect(html).toContain('<script type="module" src="/assets/index.js"></script>');
  });

  it('says on <html> whether the page offers Google sign-in, one file each way', () => {
    expect(withGoogleFlag('<!doctype html><html lang="en"><head></head></html>', true)).toContain(
      '<html lang="en" data-google="on">',
    );
    expect(withGoogleFlag(INDEX, false)).toMatch(/^<!doctype html><html data-google="off"><head>/);
    expect(LOGIN_VARIANTS).toEqual([
      { file: 'login.html', google: true },
      { file: 'login-password.html', google: false },
    ]);
    expect(SIGNUP_VARIANTS).toEqual([
      { file: 'signup.html', google: true },
      { file: 'signup-password.html', google: false },
    ]);
  });

  it('refuses an index.html without the root element', () => {
    expect(() =>
      serverRenderedDocument('<html><head></head><body></body></html>', { html: '', css: '' }, 'login'),
    ).toThrow(/root/);
  });
});
