import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkBundleExternals,
  externalVersionProblems,
  packageOf,
  resolvedVersion,
} from '../bin/external-versions.mjs';

const manifest = (dependencies: Record<string, string>) => ({ dependencies });

describe("the build's check of a bundle's external imports", () => {
  it('names the package of a bare import', () => {
    expect(packageOf('lru-cache')).toBe('lru-cache');
    expect(packageOf('sharp/lib/x.js')).toBe('sharp');
    expect(packageOf('@aws-sdk/client-s3')).toBe('@aws-sdk/client-s3');
    expect(packageOf('@prisma/client/runtime/client')).toBe('@prisma/client');
  });

  it('reports a version outside the range the importing workspace or the app declares, and a package not installed', () => {
    const declarers = (workspace: string) => [
      { file: `${workspace}/package.json`, manifest: manifest({ 'lru-cache': '^11.5.4', pg: '^8.0.0' }) },
      { file: 'apps/api/package.json', manifest: manifest({ 'lru-cache': '^11.0.0', sharp: '^0.35.0' }) },
    ];
    const versions: Record<string, string | null> = { 'lru-cache': '5.1.1', pg: '8.23.1', sharp: null };
    const { problems, undeclared } = externalVersionProblems({
      imports: ['lru-cache', 'pg', 'sharp/lib/x.js', 'lru-cache'].map((specifier) => ({
        specifier,
        workspace: 'packages/server',
      })),
      declarers,
      resolve: (name) => versions[name] ?? null,
    });
    expect(problems).toEqual([
      'lru-cache resolves to 5.1.1 from the bundle, but packages/server/package.json declares ^11.5.4',
      'lru-cache resolves to 5.1.1 from the bundle, but apps/api/package.json declares ^11.0.0',
      'sharp is not installed where the bundle runs (apps/api/package.json declares ^0.35.0)',
    ]);
    expect(undeclared).toEqual([]);
  });

  it("passes versions in range (a prerelease too), skips Node's modules, relative imports and non-semver ranges, and warns of an undeclared package", () => {
    const report = externalVersionProblems({
      imports: ['node:fs', 'fs', './class.ts', '@prisma/engine', '@helix/x', 'zod', 'lru-cache'].map(
        (specifier) => ({ specifier, workspace: 'apps/api' }),
      ),
      declarers: () => [
        {
          file: 'apps/api/package.json',
          manifest: {
            dependencies: { '@helix/x': '*', 'lru-cache': '^11.5.4' },
            devDependencies: { '@prisma/engine': '^8.1.0-2.abc' },
          },
        },
      ],
      resolve: (name) =>
        ({ '@prisma/engine': '8.1.0-2.abc', '@helix/x': '0.0.0', 'lru-cache': '11.6.0' })[name] ?? '4.0.0',
    });
    expect(report).toEqual({
      problems: [],
      undeclared: ['zod is imported by apps/api, whose package.json does not declare it'],
    });
  });
});

describe('the check of a built bundle in its folders', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const write = (file: string, json: object) => {
    mkdirSync(path.dirname(path.join(root!, file)), { recursive: true });
    writeFileSync(path.join(root!, file), JSON.stringify(json));
  };

  it("resolves as Node does from the bundle's folder, and checks the importing workspace's range", () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'helix-external-versions-'));
    // The fresh clone's case: lru-cache hoisted at 5.1.1, the server's code written for ^11.
    write('node_modules/lru-cache/package.json', { version: '5.1.1' });
    write('packages/server/package.json', manifest({ 'lru-cache': '^11.5.4' }));
    write('apps/api/package.json', manifest({}));
    const metafile = {
      inputs: {
        'apps/api/src/main.ts': { imports: [{ path: 'node:http', external: true }] },
        'packages/server/src/cache.ts': { imports: [{ path: 'lru-cache', external: true }] },
      },
    };
    const check = () =>
      checkBundleExternals({ metafile, root: root!, outDir: 'apps/api/dist-node', appDir: 'apps/api' });
    expect(resolvedVersion('lru-cache', path.join(root, 'apps/api/dist-node'))).toBe('5.1.1');
    expect(check().problems).toEqual([
      'lru-cache resolves to 5.1.1 from the bundle, but packages/server/package.json declares ^11.5.4',
    ]);
    // Installed beside the app (the app declares it too): found first from the bundle, and in range.
    write('apps/api/node_modules/lru-cache/package.json', { version: '11.5.4' });
    expect(check()).toEqual({ problems: [], undeclared: [] });
    expect(resolvedVersion('no-such-package', path.join(root, 'apps/api/dist-node'))).toBeNull();
  });
});
