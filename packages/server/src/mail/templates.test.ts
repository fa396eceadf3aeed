import { describe, expect, it } from 'vitest';
import type { MailBrand } from '@helix/shared';
import { formatMailDate } from './expiry.ts';
import { mailLogoUrl, presentMailBrand } from './mail-brand.ts';
import { logoStorageKey } from './mail-logo.ts';
import { escapeHtml, renderMail, type MailLook } from './templates.ts';

/** A school's look as sent: its logo is the message's inline PNG part (transport.ts). */
const SCHOOL: MailLook = {
  name: 'St Mary’s <b>School</b> & "Friends"',
  logo: { src: 'cid:logo.abc@helix', width: 150, height: 40 },
  primaryColor: '#0a7d32',
  textColor: '#000000',
};

const invite = (over: Record<string, string> = {}) => ({
  name: 'Ana',
  tenantName: 'St Mary’s',
  inviterName: 'Olivia',
  link: 'https://portal.test/invitation?token=abc',
  expiresAt: '2026-12-10T14:00:00.000Z',
  ...over,
});

describe('mail templates', () => {
  it('escapes every value in HTML and keeps text as typed', () => {
    const mail = renderMail('invite', {
      name: '<script>alert(1)</script>',
      tenantName: 'A & B "Labs"',
      inviterName: "O'Neil",
      link: 'https://portal.test/invitation?token=a&b="x"',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('A &amp; B &quot;Labs&quot;');
    expect(mail.html).toContain('href="https://portal.test/invitation?token=a&amp;b=&quot;x&quot;"');
    expect(mail.text).toContain('<script>alert(1)</script>');
    expect(mail.subject).toBe('You are invited to A & B "Labs" on Helix');
  });

  it('refuses links that are not http(s) and missing variables', () => {
    expect(() => renderMail('password-reset', { name: 'x', link: 'javascript:alert(1)' })).toThrow();
    expect(() => renderMail('password-reset', { name: 'x' })).toThrow();
    expect(() => renderMail('invite', invite({ expiresAt: 'next week' }))).toThrow();
  });

  it('escapes the five characters', () => {
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });
});

describe('the invitation e-mail', () => {
  it('says when the link expires, in UTC, in both parts', () => {
    const mail = renderMail('invite', invite());
    const sentence = 'This invitation expires on 10 December 2026 at 14:00 UTC.';
    expect(mail.text).toContain(sentence);
    expect(mail.html).toContain(sentence);
  });

  it('formats single-digit days and midnight the same way', () => {
    expect(formatMailDate(new Date('2027-03-01T00:05:00Z'))).toBe('1 March 2027 at 00:05 UTC');
  });

  it("carries the school's name, logo (with alt text), colours and a plain-text part", () => {
    const mail = renderMail('invite', invite(), SCHOOL);
    const name = 'St Mary’s &lt;b&gt;School&lt;/b&gt; &amp; &quot;Friends&quot;';
    expect(mail.html).toContain(`<img src="cid:logo.abc@helix" alt="${name}" width="150" height="40"`);
    expect(mail.html).toContain('background:#0a7d32;color:#000000');
    expect(mail.html).toContain(`Sent by Helix for ${name}.`);
    expect(mail.html).not.toContain('<b>School</b>');
    expect(mail.html).not.toContain('#5f51fb');
    expect(mail.text.split('\n')[0]).toBe(SCHOOL.name);
    expect(mail.text).toContain('Accept the invitation:\nhttps://portal.test/invitation?token=abc');
    // The text part is text: the school's name as typed, no markup or entities of ours.
    expect(mail.text).not.toMatch(/<(p|a|img|table)\b|&amp;/);
  });

  it("has Helix's look without a brand, and the school's name without a logo", () => {
    const helix = renderMail('invite', invite());
    expect(helix.html).toContain('background:#5f51fb;color:#ffffff');
    expect(helix.html).not.toContain('<img');
    expect(helix.text.split('\n')[0]).toBe('Helix');
    const noLogo = renderMail('invite', invite(), { ...SCHOOL, logo: undefined });
    expect(noLogo.html).not.toContain('<img');
    expect(noLogo.html).toContain('>St Mary’s &lt;b&gt;School&lt;/b&gt;');
    // A brand as queued names where its logo is stored: never shown as a remote image.
    const queued: MailBrand = {
      name: 'St Mary’s',
      logoUrl: 'https://portal.test/api/files/images/logo-abc.webp',
      primaryColor: '#0a7d32',
      textColor: '#000000',
    };
    expect(renderMail('invite', invite(), queued).html).not.toContain('<img');
  });
});

describe('the password-reset and welcome e-mails of a school user', () => {
  it("carry the school's look", () => {
    const reset = renderMail(
      'password-reset',
      { name: 'Ana', link: 'https://portal.test/set-password?token=x' },
      SCHOOL,
    );
    expect(reset.html).toContain('background:#0a7d32');
    expect(reset.html).toContain('alt="St Mary’s &lt;b&gt;School');
    expect(reset.text).toContain('your St Mary’s <b>School</b> & "Friends" account on Helix');
    const welcome = renderMail('welcome', { name: 'Ana' }, SCHOOL);
    expect(welcome.subject).toBe(`Welcome to ${SCHOOL.name} on Helix`);
    expect(welcome.html).toContain('src="cid:logo.abc@helix"');
  });
});

describe('a school brand for e-mail', () => {
  const publicUrl = 'https://portal.test';

  it('takes the stored logo as an absolute URL on the portal, never another host', () => {
    expect(mailLogoUrl('images/logo-abc.webp', publicUrl)).toBe(
      'https://portal.test/api/files/images/logo-abc.webp',
    );
    expect(mailLogoUrl('//tracker.example/pixel.png', publicUrl)).toMatch(/^https:\/\/portal\.test\//);
    expect(mailLogoUrl('//tracker.example/pixel.png', publicUrl)).toMatch(/^https:\/\/portal\.test\//);
    expect(mailLogoUrl(null, publicUrl)).toBeUndefined();
  });

  it("finds the stored logo's key from its URL, only for the portal's own images", () => {
    const url = mailLogoUrl('images/logo-abc.webp', publicUrl)!;
    expect(logoStorageKey(url, publicUrl)).toBe('images/logo-abc.webp');
    for (const other of [
      'https://elsewhere.test/api/files/images/logo-abc.webp',
      'https://portal.test/api/files/images/logo-abc.webp?x=1',
      'https://portal.test/api/files/images/..%2Fsecret.webp',
      'https://portal.test/api/files/models/abc.glb',
      'https://portal.test/static/logo.png',
      'not a url',
    ]) {
      expect(logoStorageKey(other, publicUrl)).toBeNull();
    }
  });

  it("is Helix's for the platform tenant and for a tenant without a look of its own", () => {
    expect(presentMailBrand({ name: 'Helix Platform', isPlatform: true }, null, publicUrl)).toBeUndefined();
    // An individual subscriber's tenant (named after them) that never set a logo, brand or colour.
    const plain = { primaryColor: '#5f51fb', textColor: '#ffffff', brandLogo: null };
    expect(presentMailBrand({ name: 'Sam Doe', isPlatform: false }, plain, publicUrl)).toBeUndefined();
    expect(presentMailBrand({ name: 'Sam Doe', isPlatform: false }, null, publicUrl)).toBeUndefined();
  });

  it('takes a logo, a brand name or a colour as a look, with default colours where unreadable', () => {
    expect(
      presentMailBrand(
        { name: 'Demo', isPlatform: false },
        { primaryColor: 'red', brandLogo: 'images/logo-x.webp' },
        publicUrl,
      ),
    ).toEqual({
      name: 'Demo',
      logoUrl: 'https://portal.test/api/files/images/logo-x.webp',
      primaryColor: '#5f51fb',
      textColor: '#ffffff',
    });
    expect(
      presentMailBrand({ name: 'Demo', isPlatform: false, customBrandName: 'demo' }, null, publicUrl),
    ).toEqual({ name: 'Demo', primaryColor: '#5f51fb', textColor: '#ffffff' });
    expect(
      presentMailBrand({ name: 'Demo', isPlatform: false }, { primaryColor: '#0A7D32' }, publicUrl)
        ?.primaryColor,
    ).toBe('#0a7d32');
  });
});

describe('the request for a new invitation', () => {
  it("names the invitee, links the users list, in the school's look, escaped", () => {
    const mail = renderMail(
      'invite-renewal',
      {
        name: 'Olivia',
        inviteeName: 'Ana <i>',
        inviteeEmail: 'ana@school.test',
        tenantName: 'St Mary’s',
        link: 'https://portal.test/user/settings/users-list',
      },
      SCHOOL,
    );
    expect(mail.subject).toBe('Ana <i> asks for a new invitation to St Mary’s');
    expect(mail.html).toContain('Ana &lt;i&gt; (ana@school.test)');
    expect(mail.html).toContain('href="https://portal.test/user/settings/users-list"');
    expect(mail.html).toContain('background:#0a7d32');
    expect(mail.text).toContain('Open the users list:\nhttps://portal.test/user/settings/users-list');
  });
});
