// The build's check of a bundle's external imports (build-server.mjs): every package a bundle leaves
// to node_modules must be found, from the bundle's own folder, at a version the workspace importing it
// declares (and the app's own package.json, when it declares it too). A fresh clone's API once failed to
// start because lru-cache resolved from apps/api to a hoisted 5.1.1 while packages/server declares ^11.
// Plain Node (the build runs it without a TypeScript loader); its types: external-versions.d.mts.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import semver from 'semver';

/** The package a bare import names: 'lru-cache' of 'lru-cache', '@aws-sdk/client-s3' of '@aws-sdk/client-s3/x'. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The version of `name` that Node resolves a bare import to from `dir`: the first
 * node_modules/<name>/package.json in `dir` or a folder above it; null when there is none.
 */
export function resolvedVersion(name, dir) {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const manifest = path.join(at, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).version ?? null;
    if (path.dirname(at) === at) return null;
  }
}

/** The range a package.json declares `name` with (dependencies, dev, optional or peer); null when it does not. */
export function declaredRange(manifest, name) {
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const range = manifest?.[field]?.[name];
    if (typeof range === 'string') return range;
  }
  return null;
}

/** The folder of the package.json nearest above `file` (its workspace), up to `root`; null when none. */
export function workspaceOf(file, root) {
  for (let at = path.dirname(path.resolve(root, file)); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'package.json'))) return at;
    if (at === path.resolve(root) || path.dirname(at) === at) return null;
  }
}

/**
 * What is wrong with a bundle's external imports, one line each. `imports`: each external import and
 * the workspace folder of the file importing it; `declarers(workspace)`: the package.json files whose
 * ranges the import must satisfy, with their names for the message; `resolve(name)`: the version Node
 * finds from the bundle. `problems` fail the build: a version outside a declared range, or none
 * installed. `undeclared`: a package neither package.json declares (it loads whatever is hoisted), a
 * warning. Node's own modules and relative imports are not packages; a range that is not a semver
 * range (a workspace, file or git reference) is not checked.
 */
export function externalVersionProblems({ imports, declarers, resolve }) {
  const problems = new Set();
  const undeclared = new Set();
  for (const { specifier, workspace } of imports) {
    if (isBuiltin(specifier) || specifier.startsWith('.') || path.isAbsolute(specifier)) continue;
    const name = packageOf(specifier);
    const declared = declarers(workspace)
      .map(({ file, manifest }) => ({ file, range: declaredRange(manifest, name) }))
      .filter((d) => d.range !== null);
    if (declared.length === 0) {
      undeclared.add(`${name} is imported by ${workspace}, whose package.json does not declare it`);
      continue;
    }
    const version = resolve(name);
    for (const { file, range } of declared) {
      if (!semver.validRange(range)) continue;
      if (version === null)
        problems.add(`${name} is not installed where the bundle runs (${file} declares ${range})`);
      else if (!semver.satisfies(version, range, { includePrerelease: true }))
        problems.add(`${name} resolves to ${version} from the bundle, but ${file} declares ${range}`);
    }
  }
  return { problems: [...problems], undeclared: [...undeclared] };
}

/**
 * The check of one built bundle: esbuild's metafile (`metafile: true`), the repository root, the
 * bundle's folder and the app's folder (its own package.json). Answers externalVersionProblems'.
 */
export function checkBundleExternals({ metafile, root, outDir, appDir }) {
  const manifests = new Map();
  const manifestOf = (dir) => {
    if (!manifests.has(dir)) {
      const file = path.join(dir, 'package.json');
      manifests.set(dir, existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
    }
    return manifests.get(dir);
  };
  const imports = Object.entries(metafile.inputs).flatMap(([input, { imports: of }]) => {
    const workspace = path.relative(root, workspaceOf(input, root) ?? root) || '.';
    return of.filter((i) => i.external).map((i) => ({ specifier: i.path, workspace }));
  });
  return externalVersionProblems({
    imports,
    declarers: (workspace) =>
      [...new Set([workspace, path.normalize(appDir)])].map((dir) => ({
        file: path.join(dir, 'package.json'),
        manifest: manifestOf(path.resolve(root, dir)),
      })),
    resolve: (name) => resolvedVersion(name, path.resolve(root, outDir)),
  });
}
