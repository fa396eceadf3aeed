import { describe, expect, it } from 'vitest';
import { isFramedPath, quietPwaOnFramedPages } from './framed-pages';

/** A document with one manifest link, and a window that dispatches events (Node's EventTarget). */
function page() {
  const links = [
    {
      removed: false,
      remove() {
        this.removed = true;
      },
    },
  ];
  const doc = { querySelectorAll: (selector: string) => (selector === 'link[rel="manifest"]' ? links : []) };
  const win = new EventTarget();
  const installPrompt = () => {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    win.dispatchEvent(event);
    return event.defaultPrevented;
  };
  return {
    doc: doc as unknown as Document,
    win: win as unknown as Window,
    manifestLinked: () => !links[0]!.removed,
    installPrompt,
  };
}

describe('framed pages', () => {
  it('are the embed and share pages only', () => {
    for (const p of ['/embed/abc', '/share/abc', '/embed', '/share/']) expect(isFramedPath(p), p).toBe(true);
    for (const p of ['/login', '/user/home', '/embedded', '/shared/x', '/models', '/'])
      expect(isFramedPath(p), p).toBe(false);
  });

  it('unlink the manifest and refuse the install prompt there', () => {
    const embed = page();
    quietPwaOnFramedPages('/embed/some-token', embed.doc, embed.win);
    expect(embed.manifestLinked()).toBe(false);
    expect(embed.installPrompt()).toBe(true);
  });

  it('leave every other page installable', () => {
    const login = page();
    quietPwaOnFramedPages('/login', login.doc, login.win);
    expect(login.manifestLinked()).toBe(true);
    expect(login.installPrompt()).toBe(false);
  });
});
