import { openSchemaEngine, NO_FILTERS } from './schema-engine.ts';
import { ADMIN_DATABASE_URL } from '@helix/server/testing/test-db';

/**
 * Migration SQL between two versions of schema.prisma (null = empty database). A datamodel-to-
 * datamodel diff needs no introspection, which is what keeps it working with the WebAssembly engine.
 */
export async function diffSchemas(
  from: string | null,
  to: string,
  connection = ADMIN_DATABASE_URL,
): Promise<string> {
  const engine = await openSchemaEngine(connection);
  try {
    const result = await engine.diff({
      from:
        from === null
          ? { tag: 'empty' }
          : { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: from }] },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: to }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
  }
}

export const isEmptyMigration = (sql: string) =>
  /^\s*-- This is an empty migration\.\s*$/.test(sql) || sql.trim() === '';
