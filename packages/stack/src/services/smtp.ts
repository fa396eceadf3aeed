import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SMTPServer } from 'smtp-server';
import { DEFAULT_DATA_DIR } from '../paths.ts';
import { freePort } from './net.ts';
import { displayPath, noStop, redact, type Service, type ServiceOptions } from './types.ts';

export interface SmtpOptions extends ServiceOptions {
  /** Use this SMTP server (default: the SMTP_URL environment variable). */
  smtpUrl?: string;
  /** Where caught messages are written (default <dataDir>/mail). */
  mailDir?: string;
}

export interface SmtpService extends Service {
  /** Set when the stack's own catcher is in use: the folder of caught .eml files. */
  mailDir?: string;
}

/**
 * E-mail: SMTP_URL; otherwise a catcher on a free port that accepts every message (any or no login,
 * no TLS) and writes it as <mailDir>/<timestamp>-<id>.eml, the raw message as received.
 */
export async function resolveSmtp(options: SmtpOptions = {}): Promise<SmtpService> {
  const given = options.smtpUrl ?? process.env.SMTP_URL;
  if (given)
    return {
      url: given,
      kind: 'external',
      description: `SMTP from SMTP_URL (${redact(given)})`,
      stop: noStop,
    };
  return startMailCatcher(options);
}

export async function startMailCatcher(options: SmtpOptions = {}): Promise<SmtpService> {
  const mailDir = options.mailDir ?? path.join(options.dataDir ?? DEFAULT_DATA_DIR, 'mail');
  mkdirSync(mailDir, { recursive: true });
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    banner: 'Helix development mail catcher',
    size: 50 * 1024 * 1024,
    closeTimeout: 2000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'dev' });
    },
    onData(stream, _session, callback) {
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
      const file = path.join(mailDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      const partial = `${file}.part`;
      pipeline(stream, createWriteStream(partial)).then(
        () => {
          renameSync(partial, file);
          callback();
        },
        (error: Error) => {
          rmSync(partial, { force: true });
          callback(error);
        },
      );
    },
  });
  server.on('error', (error) => options.log?.(`mail catcher: ${error.message}`));
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    kind: 'embedded',
    description: `mail catcher on 127.0.0.1:${port}, messages written to ${displayPath(mailDir)}`,
    mailDir,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
