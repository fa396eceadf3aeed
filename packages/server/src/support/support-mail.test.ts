import { describe, expect, it } from 'vitest';
import { supportConfirmationMail, supportTeamMail, type SupportMailFacts } from './support-mail.ts';

const facts: SupportMailFacts = {
  id: 7,
  subject: 'Heart <model>',
  message: 'Line one\nLine <two>',
  priority: true,
  targetHours: 4,
  planName: 'Enterprise Monthly',
  currentPlanName: 'Enterprise Monthly',
  tenant: { id: 3, name: 'Springfield', domainPrefix: 'springfield' },
  user: { id: 9, name: 'Ada', email: 'ada@example.test' },
  createdAt: new Date('2026-12-01T10:00:00Z'),
};

describe('support e-mails', () => {
  it('to the team: in the mail layout, the message quoted as written and escaped, a link to all requests', () => {
    const mail = supportTeamMail(facts, 'https://portal.example/admin/support');
    expect(mail.subject).toMatch(/^\[Priority\] Support request #7/);
    expect(mail.html).toContain('Sent by Helix.');
    expect(mail.html).toMatch(
      /<blockquote[^>]*white-space:pre-wrap[^>]*>Line one\nLine &lt;two&gt;<\/blockquote>/,
    );
    expect(mail.html).not.toContain('<two>');
    expect(mail.html).toContain('href="https://portal.example/admin/support"');
    expect(mail.text).toContain('Plan: Enterprise Monthly');
    expect(mail.text).toContain('Line one\nLine <two>');
    expect(mail.text).toContain('All requests:\nhttps://portal.example/admin/support');
  });

  it('to the sender: the target and a copy of the message, no button', () => {
    const mail = supportConfirmationMail(facts);
    expect(mail.text).toContain('4 business hours');
    expect(mail.text).toContain('Line one\nLine <two>');
    expect(mail.html).toContain('Sent by Helix.');
    expect(mail.html).not.toContain('<a ');
  });
});
