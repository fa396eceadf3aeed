import request from 'supertest';
import { openInvite } from '@helix/server/accounts/join.command';
import { uniqueName } from '@helix/server/testing/factories';
import type { Harness } from '../../test/harness.ts';
import type { SunkMail } from '../../test/mail-sink.ts';

/** Polls `check` every 100 ms; throws naming `what` after timeoutMs. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the worker marks the batch done itself (nobody polls the API), then `settleMs` more for
 * any straggling message; resolves with the batch as it is then.
 */
export async function batchDone(h: Harness, batchId: number, timeoutMs: number, settleMs = 1000) {
  const read = () => h.db.bulkInviteBatch.findUniqueOrThrow({ where: { id: batchId } });
  await until(
    async () => (await read()).status === 'done',
    timeoutMs,
    `the worker to finish batch ${batchId}`,
  );
  await new Promise((r) => setTimeout(r, settleMs));
  return read();
}

export const tokenOf = (link: string | null): string =>
  new URL(link ?? 'http://none').searchParams.get('token') ?? '';

/**
 * Every mailed link's token through the join check the sign-up page's request runs (openInvite, the
 * first step of POST /user/register with a token): the addresses whose link does not open their own
 * invitation.
 */
export async function linksThatDoNotOpen(h: Harness, mails: readonly SunkMail[]): Promise<string[]> {
  const bad: string[] = [];
  for (const mail of mails) {
    const invite = await openInvite(h.db, tokenOf(mail.link));
    if (!invite || invite.user.email !== mail.to[0]) {
      const at = mail.raw.indexOf('token=');
      bad.push(`${mail.to[0]} ${mail.link} in ${JSON.stringify(mail.raw.slice(at - 40, at + 120))}`);
    }
  }
  return bad;
}

/** Joins with a mailed link as the web's sign-up page does (POST /api/user/register with the token). */
export const joinWith = (h: Harness, mail: SunkMail) =>
  request(h.app)
    .post('/api/user/register')
    .send({
      name: 'Joined Invitee',
      user_name: uniqueName('joined'),
      email: mail.to[0],
      password: 'a good password',
      emailstatus: false,
      token: tokenOf(mail.link),
    });

/** Prints a figures table for the README's "Faults" table. */
export function printFigures(title: string, figures: Record<string, string | number>) {
  console.log(`\n${title}`);
  console.table(figures);
}
