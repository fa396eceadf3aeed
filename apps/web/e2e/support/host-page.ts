import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostedFile {
  type: string;
  body: string | Buffer;
}

/**
 * A tiny web server on another origin, standing for a customer's site (a page that embeds the
 * portal) or any page a test needs to load files into. Routes are exact paths.
 */
export async function startHostServer(
  routes: Record<string, HostedFile>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = routes[new URL(req.url ?? '/', 'http://host').pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
