import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { inject } from 'vitest';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

async function readAll(dir: string): Promise<ReceivedMail[]> {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await PostalMime.parse(readFileSync(path.join(dir, file)));
      return {
        to: (parsed.to ?? []).map((a) => a.address ?? ''),
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        html: parsed.html ?? '',
      };
    }),
  );
}

/** Waits for the newest message to `address` (and, if given, that `match` accepts) that the test SMTP server received. */
export async function waitForMail(
  address: string,
  timeoutMs = 20_000,
  match: (mail: ReceivedMail) => boolean = () => true,
): Promise<ReceivedMail> {
  const dir = inject('mailDir');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = (await readAll(dir)).filter((m) => m.to.includes(address.toLowerCase()) && match(m)).at(-1);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no e-mail to ${address} within ${timeoutMs} ms`);
}

export const firstLink = (mail: ReceivedMail, contains: string): string => {
  const match = `${mail.text}\n${mail.html}`.match(new RegExp(`https?://[^\\s"'<>]*${contains}[^\\s"'<>]*`));
  if (!match) throw new Error(`no link containing ${contains} in the e-mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, '&');
};
