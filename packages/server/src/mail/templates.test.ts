import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMail } from './templates.ts';

describe('mail templates', () => {
  it('escapes every value in HTML and keeps text as typed', () => {
    const mail = renderMail('invite', {
      name: '<script>alert(1)</script>',
      tenantName: 'A & B "Labs"',
      inviterName: "O'Neil",
      link: 'https://portal.test/signup?token=a&b="x"',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('A &amp; B &quot;Labs&quot;');
    expect(mail.html).toContain('href="https://portal.test/signup?token=a&amp;b=&quot;x&quot;"');
    expect(mail.text).toContain('<script>alert(1)</script>');
    expect(mail.subject).toBe('You are invited to A & B "Labs" on Helix');
  });

  it('refuses links that are not http(s) and missing variables', () => {
    expect(() => renderMail('password-reset', { name: 'x', link: 'javascript:alert(1)' })).toThrow();
    expect(() => renderMail('password-reset', { name: 'x' })).toThrow();
  });

  it('escapes the five characters', () => {
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });
});
