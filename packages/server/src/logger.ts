import { pino, type Logger } from 'pino';

/** Structured logs. Passwords, tokens and authorization headers are redacted wherever they appear. */
export const REDACT_PATHS = [
  'password',
  'newPassword',
  'oldPassword',
  'token',
  'apiToken',
  'authorization',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.token',
  '*.apiToken',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
