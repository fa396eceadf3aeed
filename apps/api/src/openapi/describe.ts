import {
  OpenAPIRegistry,
  zodToOpenAPIRegistry,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Permission } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER } from '@helix/shared/schemas/outbox';
import { TenantParams } from '@helix/shared/schemas/tenant';
import './schema-names.ts';

/**
 * The API reference's vocabulary (docs: apps/api/API.md, "The reference"). Every route under /api is
 * declared once with `defineRoute` (routes/define-route.ts), which mounts it and describes it here; a
 * test lists the routes Express has mounted and fails on any the document does not have (openapi.test.ts).
 */

export const registry = new OpenAPIRegistry();

export type HttpMethod = 'get' | 'post' | 'options';

/** The one error shape (packages/shared/src/api-error.ts), with every code a client may read. */
export const ApiError = component(
  'ApiError',
  z
    .object({
      statusCode: z.number().int(),
      error: z.string(),
      code: z.string().meta({
        description:
          'Stable machine code; the message is for people. Known codes: ' +
          [...KNOWN_CODES()].map((c) => `\`${c}\``).join(', '),
      }),
      message: z.string(),
      /** Field errors: the first message of each field, keyed by the field's path. */
      errors: z.record(z.string(), z.string()).optional(),
      /** A 409 VERSION_CONFLICT: the record as it is now (as its GET presents it). */
      current: z.unknown().optional(),
    })
    .meta({
      description:
        'Every failure answers this shape: `{ statusCode, error, code, message, errors?, current? }`.',
    }),
);

function KNOWN_CODES(): Set<string> {
  return new Set(Object.values(ERROR_CODES));
}

/** What each error status means and which codes it carries (the response's description). */
const ERROR_STATUS: Record<number, string> = {
  400: 'Bad input: `VALIDATION_FAILED` (with `errors` per field), `INVALID_JSON`, `BODY_TOO_DEEP`, `BAD_REQUEST`, `FIELD_INVALID`, `IF_MATCH_INVALID`, `IDEMPOTENCY_KEY_INVALID`, `QUEUED_AT_INVALID`.',
  401: 'No session, or an ended one: `UNAUTHORIZED`; `INVALID_TOKEN` when a newer login of the same user ended it.',
  402: "The card was declined or 3-D Secure failed: `CARD_ERROR` (Stripe's own message).",
  403: 'The session lacks the permission or role the call needs: `FORBIDDEN`, `BILLING_OWNER_ONLY`.',
  404: "Not found, or not visible to the caller (another tenant's record and a missing one are the same 404): `NOT_FOUND`.",
  409: 'Conflict: `CONFLICT`, `VERSION_CONFLICT` (with `current`, the record now), `IDEMPOTENCY_IN_PROGRESS`, `USERS_LIMIT_EXCEEDS`, billing states (`TRIAL_ALREADY_USED`, `NO_SUBSCRIPTION`, `PLAN_CHANGE_PENDING`, `SEATS_FIXED`, `PAYMENT_NOT_STARTED`, `NOTHING_TO_PAY`).',
  413: 'The body or an uploaded file is too large: `BODY_TOO_LARGE`, `UPLOAD_TOO_LARGE`, `UPLOAD_TOO_MANY_FIELDS`.',
  415: "The body's charset or encoding is not supported: `INVALID_JSON`.",
  422: 'A field is valid but refused (`FIELD_INVALID`), or an Idempotency-Key reused with another body (`IDEMPOTENCY_KEY_REUSED`), or an image too complex (`IMAGE_TOO_COMPLEX`).',
  429: 'Rate limited (with `Retry-After`): `TOO_MANY_REQUESTS`, `IMAGE_CHECK_BUSY`.',
  500: 'An unexpected failure (logged; never any internals): `INTERNAL`.',
  501: 'Not implemented (an oEmbed `format` other than json).',
  502: 'The payment provider failed: `PAYMENT_PROVIDER`.',
  503: 'Try again later (with `Retry-After`): `DATABASE_UNAVAILABLE`, `DATABASE_BUSY`, `REDIS_UNAVAILABLE`, `QUEUE_UNAVAILABLE`, `STORAGE_UNAVAILABLE`, `IMAGE_CHECK_UNAVAILABLE`, `BILLING_UNAVAILABLE`.',
};

registry.registerComponent('securitySchemes', 'session', {
  type: 'http',
  scheme: 'bearer',
  description:
    'The session token: `apiToken` of the login, register, join or Google answer, sent as `Authorization: Bearer <apiToken>`. One computer at a time: a newer login ends the older session (401 `INVALID_TOKEN`).',
});
registry.registerComponent('securitySchemes', 'stripeSignature', {
  type: 'apiKey',
  in: 'header',
  name: 'Stripe-Signature',
  description: 'Stripe signs the raw body with the webhook secret (STRIPE_WEBHOOK_SECRET).',
});

/** A success answer: a zod schema (JSON), or another media type, or none (204, 302). */
export type Answer =
  | z.ZodType
  | {
      status?: number;
      schema?: z.ZodType;
      /** Media type(s) when not JSON (text/csv, text/html, image/webp, model/gltf-binary). */
      type?: string | string[];
      description?: string;
      /** Response headers worth a client's notice. */
      headers?: Record<string, string>;
    };

/** The reference's sections, in the document's order: each route names one (`tag`). */
const TAGS = {
  Reference: 'This document and its interactive reference.',
  Operations: 'Liveness and readiness for load balancers.',
  Accounts: 'Sign-in, sign-up, invitations, password reset and the session user.',
  Plans: 'The plan catalogue.',
  Branding: 'White-label branding of a school.',
  Models: 'The model catalogue, share and embed links, views.',
  Viewer: "The viewer host's calls (another origin, CORS for VIEWER_URL) and files.",
  Users: "A tenant's users, invitations and bulk invites; platform users.",
  Roles: 'Roles, permissions and role assignment (platform admins).',
  Newsletter: 'The newsletter list and its unsubscribe link.',
  Support: 'Fast-track support requests.',
  Audit: 'The audit log.',
  Billing:
    "Plans, payments and the subscription (Stripe). Money calls are the owner's (403 BILLING_OWNER_ONLY).",
  Classrooms: 'oEmbed for pasted links, and Helix as an LTI 1.3 tool (docs/lti.md).',
  Lessons:
    'Live lessons: a teacher starts, pupils join by code; the real-time part is socket.io at /api/lessons/socket.io (docs/live-lessons.md).',
} as const;
type Tag = keyof typeof TAGS;
export const tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));

export interface RouteDoc {
  /** The reference's section. */
  tag: Tag;
  summary: string;
  description?: string;
  /** Default: `session` for /api/t/:tenant paths, `none` elsewhere. */
  auth?: 'session' | 'none' | 'stripe';
  /** Every listed permission is needed, checked by the command's policy (`can` for a check at the route). */
  permission?: Permission | Permission[];
  /** Who else decides, in words (the resource's policy): 'platform admins', 'the school\'s owner'. */
  who?: string;
  params?: z.ZodObject | z.ZodPipe;
  query?: z.ZodObject | z.ZodPipe;
  body?: z.ZodType;
  /** How the body travels (default json). */
  bodyType?: 'json' | 'multipart' | 'form' | 'raw';
  /** Outbox call: Idempotency-Key and If-Match headers (ARCHITECTURE.md §10). */
  outbox?: { ifMatch?: boolean };
  /** The success answers: one, or several by status (200 and 201, 200 and 204...). */
  ok: Answer | Answer[];
  /** Error statuses beyond those the route's shape implies (see `implied`). */
  errors?: number[];
  /** Rate limited per address or user: 429. */
  limited?: boolean;
  /** File upload parts (multipart): 413 and 422 (image checks). */
  uploads?: boolean;
  deprecated?: boolean;
  /** The route's errors carry more than ApiError (the embed page's `success: false`). */
  errorShape?: z.ZodType;
}

/** An HTML page answer. */
export const html = (description: string, status = 200) => ({ status, type: 'text/html', description });
/** A CSV download. */
export const csv = (description: string) => ({
  type: 'text/csv',
  description,
  headers: { 'Content-Disposition': 'attachment; filename=…' },
});
/** A 204. */
export const noContent = (description = 'Done; no body.') => ({ status: 204, description });
/** Express's redirect carries a one-line body in the media type the browser prefers. */
export const redirect = (description: string) => ({
  status: 302,
  type: ['text/plain', 'text/html'],
  schema: z.string(),
  description,
  headers: { Location: 'Where the browser goes next.' },
});
/** A stored file's answers: whole, a Range's part, not modified, a Range outside the file. */
export const stored = (types: string[], description: string): Answer[] => [
  { type: types, description },
  {
    status: 206,
    type: types,
    description: 'Part of the file (Range).',
    headers: { 'Content-Range': 'bytes start-end/size' },
  },
  { status: 304, description: 'Not modified (If-None-Match / If-Modified-Since).' },
  { status: 416, description: 'The Range is outside the file.' },
];

/** Express's `/api/t/:tenant/x/:id` as OpenAPI's `/api/t/{tenant}/x/{id}`. */
const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Every described operation, as `METHOD /express/path`: one declaration each. */
const described = new Set<string>();

/** An error status's answer: the one error shape, described with the codes it carries. */
const errorAnswer = (status: number, shape: z.ZodType = ApiError): ResponseConfig => ({
  description: ERROR_STATUS[status] ?? 'An error.',
  content: { 'application/json': { schema: shape } },
});

/** A schema of the reference's own (not a shared export), named in components. */
export function component<T extends z.ZodType>(name: string, schema: T): T {
  zodToOpenAPIRegistry.add(schema, { ...zodToOpenAPIRegistry.get(schema), _internal: { refId: name } });
  return schema;
}

function answerOf(answer: Answer, fallbackStatus: number): [number, ResponseConfig] {
  const spec = answer instanceof z.ZodType ? { schema: answer } : answer;
  const status = spec.status ?? (spec.schema || spec.type ? fallbackStatus : 204);
  const types = [spec.type ?? 'application/json'].flat();
  const response: ResponseConfig = {
    description: spec.description ?? (status === 204 ? 'Done; no body.' : 'Success.'),
  };
  if (spec.schema || spec.type) {
    response.content = Object.fromEntries(
      types.map((type) => [type, { schema: spec.schema ?? { type: 'string', format: 'binary' } }]),
    );
  }
  if (spec.headers) {
    response.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, description]) => [
        name,
        { description, schema: { type: 'string' } },
      ]),
    );
  }
  return [status, response];
}

/**
 * Describe one route (defineRoute does, for the route it mounts).
 * The error statuses the route's shape implies are added: bad input (400, on every route), a JSON body's size and
 * charset (413, 415), no session (401), another tenant in the path (404), a permission (403), a rate
 * limit (429), outages (503) and the unexpected (500).
 */
export function describeRoute(method: HttpMethod, path: `/api${string}`, doc: RouteDoc): void {
  const verb = method.toUpperCase();
  const tenantPath = path.startsWith('/api/t/:tenant');
  const auth = doc.auth ?? (tenantPath ? 'session' : 'none');
  const key = `${verb} ${path}`;
  if (described.has(key)) throw new Error(`${key} is described twice`);
  described.add(key);

  // 400 on every route: a path, query or body with text no route can store (NUL, a lone surrogate) is
  // refused before the route (http/unsafe-text.ts).
  const statuses = new Set<number>([400, 500, 503, ...(doc.errors ?? [])]);
  const jsonBody = doc.body && (doc.bodyType ?? 'json') === 'json';
  if (jsonBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (doc.uploads) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(422);
    statuses.add(429);
  }
  if (auth === 'session') statuses.add(401);
  if (auth === 'stripe') statuses.add(400);
  if (tenantPath) statuses.add(404);
  if (doc.permission || doc.who) statuses.add(403);
  if (doc.limited) statuses.add(429);
  if (doc.outbox) {
    statuses.add(400);
    statuses.add(409);
    statuses.add(422);
  }

  const responses: RouteConfig['responses'] = {};
  const answers = Array.isArray(doc.ok) ? doc.ok : [doc.ok];
  for (const answer of answers) {
    const [status, response] = answerOf(answer, 200);
    responses[String(status)] = response;
  }
  for (const status of [...statuses].sort((a, b) => a - b)) {
    if (!responses[String(status)]) responses[String(status)] = errorAnswer(status, doc.errorShape);
  }

  const pathParams = [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  let params = doc.params;
  if (!params && pathParams.length > 0) {
    params = z.object(
      Object.fromEntries(pathParams.map((p) => [p, p === 'tenant' ? TenantParams.shape.tenant : z.string()])),
    );
  } else if (params && tenantPath && params instanceof z.ZodObject && !('tenant' in params.shape)) {
    params = params.extend({ tenant: TenantParams.shape.tenant });
  }

  const headers: z.ZodType[] = [];
  if (doc.outbox) {
    headers.push(
      z
        .string()
        .regex(/^[A-Za-z0-9._:-]{8,200}$/)
        .optional()
        .meta({
          param: { name: IDEMPOTENCY_HEADER, in: 'header' },
          description:
            'A client-made key (a UUID): a retry with the same key and body answers the first answer again (Idempotent-Replayed: true).',
        }),
    );
    if (doc.outbox.ifMatch !== false) {
      headers.push(
        z
          .string()
          .optional()
          .meta({
            param: { name: 'If-Match', in: 'header' },
            description:
              'The version the edit was based on (`"<version>"`): a newer stored version answers 409 VERSION_CONFLICT.',
          }),
      );
    }
  }

  const permissions = doc.permission ? [doc.permission].flat() : [];
  const lines = [
    doc.description,
    permissions.length ? `**Permission:** ${permissions.map((p) => `\`${p}\``).join(' and ')}.` : undefined,
    doc.who ? `**Who:** ${doc.who}.` : undefined,
  ].filter(Boolean);

  const bodyTypes = {
    json: 'application/json',
    multipart: 'multipart/form-data',
    form: 'application/x-www-form-urlencoded',
    raw: 'application/json',
  } as const;
  const config: RouteConfig = {
    method,
    path: toOpenApiPath(path),
    summary: doc.summary,
    ...(lines.length ? { description: lines.join('\n\n') } : {}),
    tags: [doc.tag],
    security: auth === 'session' ? [{ session: [] }] : auth === 'stripe' ? [{ stripeSignature: [] }] : [],
    ...(doc.deprecated ? { deprecated: true } : {}),
    ...(permissions.length ? { 'x-permission': permissions } : {}),
    ...(doc.who ? { 'x-policy': doc.who } : {}),
    request: {
      ...(params ? { params } : {}),
      ...(doc.query ? { query: doc.query } : {}),
      ...(headers.length ? { headers } : {}),
      ...(doc.body
        ? { body: { required: true, content: { [bodyTypes[doc.bodyType ?? 'json']]: { schema: doc.body } } } }
        : {}),
    },
    responses,
  };
  registry.registerPath(config);
}
