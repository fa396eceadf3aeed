import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './request-context.ts';

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

/** Every line written while serving a request, or running a job a request enqueued, names that request. */
const requestIdMixin = (): { requestId?: string } => {
  const requestId = currentRequestId();
  return requestId ? { requestId } : {};
};

/** `destination` defaults to stdout; tests pass a stream to read what was logged. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    mixin: requestIdMixin,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
