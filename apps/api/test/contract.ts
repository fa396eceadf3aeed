import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../src/openapi/document.ts';

/**
 * The API tests' contract check (apps/api/API.md, "The reference"): every answer the test app gives
 * under /api is checked against the OpenAPI document — the status must be one the operation lists,
 * the media type one it lists, and a JSON body must match its schema, with no field the schema does
 * not name. A drift is recorded here and fails the running test (contract-setup.ts, a vitest setup
 * file), so neither the reference nor the answers can change alone.
 *
 * The document is generated and the validators compiled once per test worker (lazily, per answer kind).
 */

const VIOLATIONS = Symbol.for('helix.contractViolations');

/** The drifts seen since the last test ended (contract-setup.ts empties it and fails that test). */
export function contractViolations(): string[] {
  const store = globalThis as Record<symbol, string[] | undefined>;
  return (store[VIOLATIONS] ??= []);
}

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface PathEntry {
  template: string;
  pattern: RegExp;
  params: number;
  operations: Record<string, Operation | undefined>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let state: { ajv: Ajv2020; paths: PathEntry[]; validators: Map<string, ValidateFunction> } | undefined;

/**
 * Objects the document leaves open (zod's z.object) are closed for the check: a presenter that adds a
 * field the reference does not name is a drift. Members of allOf stay open (they are read together).
 */
function closeObjects(node: unknown, inAllOf = false): void {
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item, inAllOf);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  if (
    schema.type === 'object' &&
    schema.properties &&
    schema.additionalProperties === undefined &&
    !inAllOf
  ) {
    schema.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(schema)) {
    closeObjects(value, key === 'allOf');
  }
}

function setUp() {
  if (state) return state;
  const document = structuredClone(openApiDocument()) as unknown as Json;
  closeObjects(document.components);
  closeObjects(document.paths);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'helix-openapi');
  const paths = Object.entries(document.paths as Record<string, Record<string, Operation>>).map(
    ([template, operations]) => {
      const source = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return {
        template,
        // Express matches paths case-insensitively and with an optional trailing slash.
        pattern: new RegExp(`^${source}/?$`, 'i'),
        params: (template.match(/\{/g) ?? []).length,
        operations,
      };
    },
  );
  // A literal segment wins over a parameter (/user/bulk-invite before /user/bulk-invite/{id} is moot,
  // but /files/images/{key} must not shadow a literal sibling).
  paths.sort((a, b) => a.params - b.params);
  state = { ajv, paths, validators: new Map() };
  return state;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validator(ref: string): ValidateFunction {
  const { ajv, validators } = setUp();
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `helix-openapi#/${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}

export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body as sent (JSON only is kept); its length for others. */
  body: Buffer;
  bodyLength: number;
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** The drifts of one answer from the document (none: it matches). */
export function checkAnswer(answer: Answer): string[] {
  const path = answer.url.split('?')[0]!;
  if (!/^\/api(\/|$)/.test(path)) return [];
  const { paths } = setUp();
  const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
  const where = `${answer.method} ${path} answered ${answer.status}`;
  const entry = paths.find((p) => p.pattern.test(path) && p.operations[method]);
  const mediaType = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const problems: string[] = [];

  let ref: string;
  let documented: { content?: Record<string, unknown> } | undefined;
  if (!entry) {
    // Not a documented operation (an unknown path or method): the one error shape, a 4xx.
    if (answer.status < 400)
      return [`${where}: the reference has no ${method.toUpperCase()} operation for this path`];
    ref = pointer('components', 'schemas', 'ApiError');
    documented = { content: { 'application/json': {} } };
  } else {
    const operation = entry.operations[method]!;
    documented = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!documented) {
      const listed = Object.keys(operation.responses).join(', ');
      return [`${where}, a status the reference does not list for ${entry.template} (${listed})`];
    }
    ref = pointer(
      'paths',
      entry.template,
      method,
      'responses',
      String(answer.status),
      'content',
      mediaType,
      'schema',
    );
  }

  // A redirect's body is a courtesy (passport's has none, Express's res.redirect has one line).
  const noBody =
    answer.method === 'HEAD' ||
    answer.status === 204 ||
    answer.status === 304 ||
    (answer.status >= 300 && answer.status < 400 && answer.bodyLength === 0);
  if (!documented.content) {
    if (!noBody && answer.bodyLength > 0)
      problems.push(`${where} with a ${mediaType || 'body'} the reference does not describe`);
    return problems;
  }
  if (noBody) return problems;
  if (!(mediaType in documented.content)) {
    problems.push(
      `${where} as ${mediaType || 'no media type'}; the reference says ${Object.keys(documented.content).join(' or ')}`,
    );
    return problems;
  }
  if (!isJson(mediaType)) return problems;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return [`${where} with a body that is not JSON`];
  }
  const validate = validator(ref);
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (e) =>
          `  ${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
      );
    const text = JSON.stringify(body);
    problems.push(
      `${where}, a body that does not match the reference:\n${errors.join('\n')}\n  body: ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`,
    );
  }
  return problems;
}

type Write = ServerResponse['write'];
type End = ServerResponse['end'];

const toBuffer = (chunk: unknown, encoding: unknown): Buffer =>
  Buffer.isBuffer(chunk)
    ? chunk
    : chunk instanceof Uint8Array
      ? Buffer.from(chunk)
      : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');

let checked = 0;
/** How many /api answers this worker has checked (the check's own test). */
export const checkedAnswers = (): number => checked;

/** Watches one exchange: keeps what the app writes and checks it as the answer ends. */
function observe(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  if (!url.startsWith('/api')) return;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = toBuffer(chunk, encoding);
    length += buffer.length;
    if (/json/i.test(String(res.getHeader('content-type') ?? ''))) chunks.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!done) {
      done = true;
      checked += 1;
      keep(chunk, rest[0]);
      const problems = checkAnswer({
        method,
        url,
        status: res.statusCode,
        contentType: res.getHeader('content-type')?.toString(),
        body: Buffer.concat(chunks),
        bodyLength: length,
      });
      if (problems.length) contractViolations().push(...problems);
    }
    return end(chunk, ...rest);
  }) as End;
}

/**
 * The test app with every /api answer checked against the reference. The same Express app (a proxy
 * that only watches each exchange), so `request(app)`, `app.listen()` and app.locals work as before.
 */
export function checkedApp(app: Express): Express {
  return new Proxy(app, {
    apply(target, thisArg, args: [IncomingMessage, ServerResponse, ...unknown[]]) {
      observe(args[0], args[1]);
      return Reflect.apply(target, thisArg, args) as unknown;
    },
  });
}
