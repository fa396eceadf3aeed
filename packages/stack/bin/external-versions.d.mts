// Types of external-versions.mjs (plain Node, run by build-server.mjs).

/** An esbuild metafile's inputs, as far as the check reads them. */
export interface BundleMetafile {
  inputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
}

export interface ExternalVersionReport {
  /** Fail the build: a version outside a declared range, or none installed. */
  problems: string[];
  /** Warnings: a package no package.json of its importer (or the app) declares. */
  undeclared: string[];
}

export function packageOf(specifier: string): string;
export function resolvedVersion(name: string, dir: string): string | null;
export function declaredRange(manifest: unknown, name: string): string | null;
export function workspaceOf(file: string, root: string): string | null;
export function externalVersionProblems(options: {
  imports: { specifier: string; workspace: string }[];
  declarers: (workspace: string) => { file: string; manifest: unknown }[];
  resolve: (name: string) => string | null;
}): ExternalVersionReport;
export function checkBundleExternals(options: {
  metafile: BundleMetafile;
  root: string;
  outDir: string;
  appDir: string;
}): ExternalVersionReport;
