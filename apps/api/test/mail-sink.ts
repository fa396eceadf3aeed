import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  to: string[];
  raw: string;
  /** The first http(s) link of the message (the invitation link). */
  link: string | null;
}

const LINK = /https?:\/\/[^\s"<>]+/;

/**
 * A real SMTP server for API tests and the bench: every accepted message is kept in memory. A message
 * counts once the whole DATA part arrived (the point where the server answers 250). `delayRcptMs`
 * slows each recipient command down; hold() stops them, so a test can kill a sender mid-conversation.
 */
export async function startMailSink(
  options: {
    delayRcptMs?: number;
    /** Recipients refused for good (550). */ refuse?: RegExp;
    /** Listen on this port (a test that brings a mail server back where it was); default any free one. */
    port?: number;
  } = {},
) {
  const mails: SunkMail[] = [];
  const listeners = new Set<() => void>();
  let held: Array<() => void> | null = null;
  /** Recipients refused for now (451: the sender should retry), until refuseTemporarily(null). */
  let deferred: RegExp | null = null;
  const closed = new Set<string>();
  let open = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 1000,
    onRcptTo(address, _session, callback) {
      if (deferred?.test(address.address)) {
        callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        return;
      }
      if (options.refuse?.test(address.address)) {
        const refused = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(refused);
        return;
      }
      if (held) held.push(() => callback());
      else if (options.delayRcptMs) setTimeout(() => callback(), options.delayRcptMs);
      else callback();
    },
    onConnect(_session, callback) {
      open += 1;
      callback();
    },
    onClose(session) {
      open -= 1;
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // The text part decoded by its own transfer encoding: a hand-made quoted-printable decoding
        // turned a literal "=3D" in a 7bit part (a token starting with 3D) into "=" and cut the link.
        const text = await PostalMime.parse(raw).then(
          (email) => email.text ?? '',
          () => raw,
        );
        const accept = () => {
          // The sender went away before the 250: by SMTP's rules the message was not taken.
          if (closed.has(session.id)) return;
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw,
            link: LINK.exec(text)?.[0] ?? null,
          });
          for (const listener of listeners) listener();
          callback();
        };
        if (held) held.push(accept);
        else accept();
      });
    },
  });
  // A sender killed mid-conversation resets its connection: expected, not a failure of the sink.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  /** Resolves when at least `count` messages arrived (rejects after timeoutMs). */
  const waitFor = (count: number, timeoutMs = 90_000) =>
    new Promise<SunkMail[]>((resolve, reject) => {
      const check = () => {
        if (mails.length >= count) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(mails);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`expected ${count} e-mails, got ${mails.length}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    /**
     * Holds every conversation at its recipient command, and every message whose data arrived before
     * its 250, until release(): nothing more is accepted, so a test can kill a sender while its
     * messages are half-way through SMTP. A held message whose connection closed is dropped.
     */
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const resume of waiting) resume();
    },
    /** Answers 451 (try later) to recipients matching `pattern`; null accepts them again. */
    refuseTemporarily(pattern: RegExp | null) {
      deferred = pattern;
    },
    /** Conversations waiting at the recipient command or for their 250. */
    heldCount: () => held?.length ?? 0,
    /** SMTP connections open now (a killed sender's are closed once the sink has seen the reset). */
    openConnections: () => open,
    /** How many messages each address received. */
    countsByAddress() {
      const counts = new Map<string, number>();
      for (const mail of mails) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
      return counts;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
