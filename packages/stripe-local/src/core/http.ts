import type { NextFunction, Request, Response, Router } from 'express';
import qs from 'qs';
import { createHash } from 'node:crypto';
import type { Context } from './context.ts';
import type { Store } from './store.ts';
import { authentication, invalidRequest, StripeError } from './errors.ts';
import { applyExpand } from './expand.ts';
import { randomToken } from './ids.ts';
import { expandField, parseShape, type Out, type Shape } from './params.ts';
import { sdkAccepts, stripeLocalUnsupported } from './sdk-params.ts';
import type { Json } from './render.ts';

export type KeyMode = 'secret' | 'publishable';

export interface Call {
  ctx: Context;
  /** Validated parameters (body for POST, query for GET and DELETE). */
  params: Record<string, unknown>;
  path: Record<string, string>;
  mode: KeyMode;
  req: Request;
}

/** qs with Stripe's nesting (`items[0][price]`, `metadata[key]`), arrays kept as arrays. */
export const parseForm = (text: string) =>
  qs.parse(text, { arrayLimit: 1000, depth: 10, parameterLimit: 10_000, allowDots: false });

/** Which keys may call an endpoint: the secret key always; the publishable key only where Stripe.js may. */
export interface EndpointOptions<S extends Shape> {
  shape: S;
  publishable?: boolean;
}

export interface Endpoint {
  method: 'get' | 'post' | 'delete';
  path: string;
  publishable: boolean;
  shape: Shape;
  handle: (call: Call) => Json;
}

export function endpoint<S extends Shape>(
  method: Endpoint['method'],
  path: string,
  options: EndpointOptions<S>,
  handle: (call: Call & { params: Out<S> }) => Json,
): Endpoint {
  return {
    method,
    path,
    publishable: options.publishable ?? false,
    shape: options.shape,
    handle: handle as (call: Call) => Json,
  };
}

function keyFrom(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return value?.trim();
  if (scheme?.toLowerCase() === 'basic' && value)
    return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const redact = (key: string) =>
  key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key;

export function authenticate(ctx: Context, req: Request, publishableAllowed: boolean): KeyMode {
  const key = keyFrom(req);
  if (!key)
    throw authentication(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  if (key === ctx.options.secretKey) return 'secret';
  if (key === ctx.options.publishableKey) {
    if (!publishableAllowed)
      throw authentication(
        'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
      );
    return 'publishable';
  }
  throw authentication(`Invalid API Key provided: ${redact(key)}`);
}

interface Stored {
  fingerprint: string;
  status: number;
  body: unknown;
}

/**
 * Idempotency keys (POST only, per API key, kept 24 hours): the same key and parameters replay the stored
 * answer with `Idempotent-Replayed: true`; other parameters are an idempotency_error; a request still
 * running with the key is a 409. The answers live in the store, so they are journaled with the objects
 * the request made and a retry after a restart replays instead of acting twice.
 */
export class IdempotencyStore {
  private readonly running = new Set<string>();

  constructor(private readonly store: Store) {}

  private static id(scope: string, key: string): string {
    return `idem_${createHash('sha256').update(`${scope}\0${key}`).digest('hex').slice(0, 32)}`;
  }

  lookup(scope: string, key: string, fingerprint: string): Stored | undefined {
    const id = IdempotencyStore.id(scope, key);
    const stored = this.store.idempotencyKeys.find(id);
    if (stored && Date.now() / 1000 - stored.created > 86_400) this.store.idempotencyKeys.delete(id);
    const hit = this.store.idempotencyKeys.find(id);
    if (hit) {
      if (hit.fingerprint !== fingerprint)
        throw new StripeError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        });
      return hit;
    }
    if (this.running.has(id))
      throw new StripeError(409, {
        type: 'idempotency_error',
        code: 'idempotency_key_in_use',
        message:
          'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through). Please try again later.',
      });
    this.running.add(id);
    return undefined;
  }

  finish(scope: string, key: string, entry: Stored | undefined): void {
    const id = IdempotencyStore.id(scope, key);
    this.running.delete(id);
    if (entry) this.store.idempotencyKeys.add({ id, created: Math.floor(Date.now() / 1000), ...entry });
  }
}

/** Mounts endpoints on a router with auth, parameter validation, idempotency, expand and Stripe's headers. */
export function mount(
  router: Router,
  ctx: Context,
  idempotency: IdempotencyStore,
  endpoints: Endpoint[],
): void {
  for (const ep of endpoints) {
    const sdkName = `${ep.method} ${ep.path}`;
    router[ep.method](ep.path, (req: Request, res: Response) => {
      const requestId = `req_${randomToken(14)}`;
      res.set('Request-Id', requestId);
      res.set('Stripe-Version', req.get('stripe-version') ?? '2026-10-28.endive');
      const raw: Record<string, unknown> =
        ep.method === 'post'
          ? ((req.body as Record<string, unknown>) ?? {})
          : (req.query as Record<string, unknown>);
      const idemKey = ep.method === 'post' ? req.get('idempotency-key') : undefined;
      const scope = keyFrom(req) ?? '';
      const fingerprint = `${ep.method} ${req.path} ${JSON.stringify(raw)}`;
      let acquired = false;
      // The stored answer is recorded before the answer is sent, so both reach the disk together.
      const answer = (status: number, body: unknown, keep: boolean) => {
        ctx.request = null;
        if (acquired && idemKey !== undefined)
          idempotency.finish(scope, idemKey, keep ? { fingerprint, status, body } : undefined);
        acquired = false;
        res.status(status).json(body);
      };
      try {
        const mode = authenticate(ctx, req, ep.publishable);
        if (idemKey !== undefined) {
          if (idemKey.length > 255)
            throw invalidRequest('Idempotency-Key must be at most 255 characters long.', {
              param: 'Idempotency-Key',
            });
          const hit = idempotency.lookup(scope, idemKey, fingerprint);
          if (hit) {
            res.set('Idempotent-Replayed', 'true');
            res.set('Original-Request', requestId);
            res.status(hit.status).json(hit.body);
            return;
          }
          acquired = true;
        }
        const { expand, ...rest } = raw;
        const params = parseShape(rest, ep.shape) as Record<string, unknown>;
        const expandPaths = expand === undefined ? undefined : expandField.parse(expand, 'expand');
        ctx.request = { id: requestId, idempotencyKey: idemKey ?? null };
        const json = ep.handle({ ctx, params, path: req.params as Record<string, string>, mode, req });
        answer(200, applyExpand(ctx, json, expandPaths), true);
      } catch (error) {
        let e =
          error instanceof StripeError
            ? error
            : new StripeError(500, { type: 'api_error', message: 'An unknown error occurred.' });
        if (!(error instanceof StripeError)) console.error('[stripe-local]', error);
        if (e.body.code === 'parameter_unknown' && e.body.param && sdkAccepts(sdkName, e.body.param))
          e = stripeLocalUnsupported(e.body.param);
        e.body.request_log_url = `${ctx.url('/logs')}/${requestId}`;
        // Stripe keeps the answer of a key whose request failed on validation or a card, not 5xx.
        answer(e.status, e.toJSON(), e.status < 500);
      } finally {
        ctx.request = null;
        if (acquired && idemKey !== undefined) idempotency.finish(scope, idemKey, undefined);
      }
    });
  }
}

/** Body parser for Stripe's form-encoded requests (Stripe's API takes no JSON bodies). */
export function formBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'POST' || req.body !== undefined) return next();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      req.body = parseForm(text);
      next();
    } catch {
      next(invalidRequest('Invalid request body.'));
    }
  });
  req.on('error', next);
}
