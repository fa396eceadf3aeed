import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { InlineLogo, MailLogos } from './mail-logo.ts';
import { sendTemplateMail, sendWholeMessages } from './transport.ts';

/**
 * The pooled transport's messages leave in one write (sendWholeMessages): the same bytes as nodemailer
 * makes without it, for the invitation as the worker sends it, with and without a school's logo.
 */
const buffered = () => nodemailer.createTransport({ streamTransport: true, buffer: true });

/** A transport whose messages are the same each time: fixed Message-ID, date and MIME boundaries. */
function fixed(transport: Transporter) {
  const messages: Buffer[] = [];
  const wrapper = {
    async sendMail(mail: SendMailOptions) {
      const info = await transport.sendMail({
        ...mail,
        messageId: '<fixed@helix.test>',
        date: new Date('2026-12-06T12:00:00Z'),
        baseBoundary: 'fixed',
      } as SendMailOptions);
      messages.push(info.message as Buffer);
      return info;
    },
  } as unknown as Transporter;
  return { transport: wrapper, messages };
}

const logo: InlineLogo = { cid: 'logo.abc@helix', png: Buffer.alloc(3000, 7), width: 120, height: 40 };
const logos = (withLogo: boolean): MailLogos => ({ inline: async () => (withLogo ? logo : null) });

const invite = (withLogo: boolean) =>
  ({
    template: 'invite',
    to: 'zoë.ünal@example.test',
    vars: {
      name: 'Zoë Ünal — 5B',
      link: 'https://helix.test/invite/abc.def',
      tenantName: 'École Saint-Éloi',
      inviterName: 'Anne',
      expiresAt: '2026-12-20T09:30:00.000Z',
    },
    brand: {
      name: 'École Saint-Éloi',
      primaryColor: '#123456',
      textColor: '#ffffff',
      logoUrl: withLogo ? 'https://helix.test/api/files/images/logo.webp' : undefined,
    },
  }) as const;

describe('sendWholeMessages', () => {
  it.each([false, true])('sends the same bytes as nodemailer alone (logo: %s)', async (withLogo) => {
    const alone = fixed(buffered());
    const whole = fixed(sendWholeMessages(buffered()));
    for (const sender of [alone, whole]) {
      await sendTemplateMail(sender.transport, 'Helix <mail@helix.test>', invite(withLogo), logos(withLogo));
    }
    expect(whole.messages[0]!.length).toBeGreaterThan(1000);
    expect(whole.messages[0]!.equals(alone.messages[0]!)).toBe(true);
  });

  it('hands the message on as one chunk (nodemailer may add its final line end)', async () => {
    const chunks: number[] = [];
    const transport = sendWholeMessages(nodemailer.createTransport({ streamTransport: true }));
    const info = await transport.sendMail({
      from: 'a@helix.test',
      to: 'b@helix.test',
      text: 'x'.repeat(50_000),
    });
    await new Promise<void>((resolve, reject) => {
      const stream = info.message as NodeJS.ReadableStream;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk.length));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    expect(chunks[0]).toBeGreaterThan(50_000);
    expect(chunks.slice(1)).toEqual(chunks.length > 1 ? [2] : []);
  });
});
