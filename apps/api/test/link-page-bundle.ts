import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_BUNDLE_DIR, SERVER_BUNDLE_FILE } from '@helix/shared/server-render';

/** The web app's renderer of the link pages, in its sources (the server bundle exports it when built). */
const LINK_PAGE_SOURCE = fileURLToPath(
  new URL('../../web/src/server-render/link-page.server.tsx', import.meta.url),
);

/**
 * A server bundle beside a test's `webDist` that is the web app's own link page renderer (its sources,
 * which the test runner compiles), so the API's share and embed pages are drawn as in production.
 */
export async function writeLinkPageBundle(webDist: string): Promise<void> {
  const dir = path.resolve(webDist, '..', SERVER_BUNDLE_DIR);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, SERVER_BUNDLE_FILE),
    `export { renderLinkPage } from ${JSON.stringify(LINK_PAGE_SOURCE)};\n`,
  );
}
