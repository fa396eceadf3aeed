import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import PostalMime from 'postal-mime';
import { AppError } from '@helix/server';
import { escapeHtml } from '@helix/server/mail/templates';

const FILE = /^[A-Za-z0-9._-]{1,200}\.eml$/;
const LIST_LIMIT = 200;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  '<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}table{border-collapse:collapse;width:100%}' +
  'td,th{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ddd}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style>' +
  `</head><body>${body}</body></html>`;

/** Plain text with its http(s) links made clickable; everything else escaped. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

const addresses = (list: { address?: string; name?: string }[] | undefined) =>
  (list ?? []).map((a) => a.address ?? a.name ?? '').join(', ');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether a socket address is this machine (IPv4, IPv6, or IPv4 mapped into IPv6). */
export const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && LOOPBACK.has(address);

/**
 * Development only (DEV_MAIL_DIR set, NODE_ENV not production): the e-mails the local SMTP catcher
 * saved as .eml files, newest first, so a person running `npm start` can open a reset link. Only for
 * requests from this machine (the connection's own address, never a header): a development server
 * reachable from the network must not hand out other people's reset links.
 */
export function devMailRoutes(dir: string): Router {
  const root = path.resolve(dir);
  const router = Router();

  router.use((req, _res, next) => {
    if (!isLoopback(req.socket.remoteAddress)) throw AppError.notFound();
    next();
  });

  router.get('/', async (_req, res) => {
    let names: string[] = [];
    try {
      names = (await readdir(root)).filter((n) => FILE.test(n));
    } catch {
      names = [];
    }
    const files = await Promise.all(
      names.map(async (name) => ({ name, mtime: (await stat(path.join(root, name))).mtimeMs })),
    );
    files.sort((a, b) => b.mtime - a.mtime);
    const rows = await Promise.all(
      files.slice(0, LIST_LIMIT).map(async ({ name, mtime }) => {
        const mail = await PostalMime.parse(await readFile(path.join(root, name)));
        const date = mail.date ?? new Date(mtime).toISOString();
        return `<tr><td>${escapeHtml(date)}</td><td>${escapeHtml(addresses(mail.to))}</td><td><a href="/dev/mail/${encodeURIComponent(name)}">${escapeHtml(mail.subject ?? '(no subject)')}</a></td></tr>`;
      }),
    );
    res.setHeader('Cache-Control', 'no-store');
    res
      .type('html')
      .send(
        page(
          'Caught e-mail',
          `<h1>Caught e-mail</h1><p>${files.length} message(s) in ${escapeHtml(root)}</p>` +
            `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
        ),
      );
  });

  router.get('/:file', async (req, res, next) => {
    const name = req.params.file;
    if (!FILE.test(name) || path.basename(name) !== name) return next();
    let raw: Buffer;
    try {
      raw = await readFile(path.join(root, name));
    } catch {
      return next();
    }
    const mail = await PostalMime.parse(raw);
    res.setHeader('Cache-Control', 'no-store');
    res
      .type('html')
      .send(
        page(
          mail.subject ?? 'E-mail',
          `<p><a href="/dev/mail">All e-mail</a></p><h1>${escapeHtml(mail.subject ?? '(no subject)')}</h1>` +
            `<p>From: ${escapeHtml(mail.from?.address ?? '')}<br>To: ${escapeHtml(addresses(mail.to))}<br>Date: ${escapeHtml(mail.date ?? '')}</p>` +
            `<pre>${linkify(mail.text ?? '')}</pre>`,
        ),
      );
  });

  return router;
}
