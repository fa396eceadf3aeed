import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * Prisma's schema engine as WebAssembly, over node-postgres. The CLI's native engine is a download
 * this machine cannot make; this one ships in an npm package. Used to write migrations (diff) and to
 * check that schema.prisma and the migrations agree.
 */
interface WasmApi {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}

let loaded = false;
async function load(): Promise<void> {
  if (loaded) return;
  // wasm-bindgen panics report through this global.
  (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (message: string) => {
      throw new Error(`schema engine panic: ${message}`);
    },
  };
  const require = createRequire(import.meta.url);
  const wasmPath = require
    .resolve('@prisma/schema-engine-wasm')
    .replace(/schema_engine\.js$/, 'schema_engine_bg.wasm');
  // @types/node does not declare the WebAssembly global; this is the part used here.
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const { instance } = await wasm.instantiate(readFileSync(wasmPath), {
    './schema_engine_bg.js': bg as unknown as Record<string, unknown>,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  loaded = true;
}

export type SchemaEngine = bg.SchemaEngine;

/** The adapter creates and drops its own shadow database when the engine asks for one. */
export async function openSchemaEngine(connectionString: string): Promise<SchemaEngine> {
  await load();
  const factory = new PrismaPg({ connectionString });
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  return bg.SchemaEngine.new({ datamodels: undefined }, () => {}, bound);
}

export const NO_FILTERS = { externalTables: [], externalEnums: [] };
