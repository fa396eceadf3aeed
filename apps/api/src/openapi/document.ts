import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { registry, tags } from './describe.ts';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

let document: OpenApiDocument | undefined;

/**
 * The OpenAPI 3.1 document of every /api route, generated once per process from the routes'
 * declarations (defineRoute, in apps/api/src/routes/*.routes.ts: each describes itself when its module
 * loads, so app.ts has loaded them all before it asks). Served as /api/openapi.json; the API tests
 * check every answer against it, and openapi.test.ts that it has every mounted route.
 */
export function openApiDocument(): OpenApiDocument {
  document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Helix API',
      version: '1',
      description: [
        'The API of the Helix portal. Base calls live under `/api`; tenant calls under `/api/t/{tenant}`, where',
        "`{tenant}` is the caller's `domainPrefix` (the platform tenant is `services`): the server takes the tenant",
        "from the session, and a path tenant that is not the caller's answers 404.",
        '',
        'Authenticated calls send `Authorization: Bearer <apiToken>` (the `apiToken` of the login answer).',
        'Each operation lists the permission it needs (`x-permission`) and who else decides (`x-policy`).',
        'Every failure answers the one error shape `ApiError` with a stable `code`.',
      ].join('\n'),
    },
    servers: [{ url: '/', description: 'This server' }],
    tags,
  });
  return document;
}
