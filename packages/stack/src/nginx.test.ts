import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findNginx,
  localNginxConfig,
  NGINX_TEMPLATE,
  renderTemplate,
  startNginx,
  type NginxService,
} from './nginx.ts';
import { ROOT } from './paths.ts';
import { freePort } from './services/net.ts';

const template = readFileSync(NGINX_TEMPLATE, 'utf8');
const placeholders = [...new Set([...template.matchAll(/\$\{(HELIX_[A-Z_]+)\}/g)].map((m) => m[1]!))];
const values = {
  apis: ['127.0.0.1:4001', '127.0.0.1:4002'],
  viewers: ['127.0.0.1:4003'],
  portalListen: '127.0.0.1:3000',
  viewerListen: '127.0.0.1:3001',
  webDist: '/srv/web',
  accessLog: '/tmp/access.log',
  maxBody: '60m',
};

describe('the nginx template (ops/nginx/templates/helix.conf.template)', () => {
  it('is filled completely for this machine, each API process with its passive health', () => {
    const rendered = renderTemplate(template, values);
    expect(rendered).not.toMatch(/\$\{HELIX_[A-Z_]+\}/);
    expect(rendered).toContain('server 127.0.0.1:4001 max_fails=3 fail_timeout=10s;');
    expect(rendered).toContain('server 127.0.0.1:4002 max_fails=3 fail_timeout=10s;');
    const whole = localNginxConfig('/tmp/helix-nginx', values);
    expect(whole).toMatch(/^daemon off;$/m);
    expect(whole).toContain('pid /tmp/helix-nginx/nginx.pid;');
    expect(whole).toContain('proxy_temp_path /tmp/helix-nginx/temp/proxy;');
  });

  it('has every placeholder set by the compose profile and the proxy image (envsubst leaves unset ones as text)', () => {
    const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const proxyStage = dockerfile.slice(dockerfile.indexOf('AS proxy'));
    for (const name of placeholders) {
      expect(`${compose}\n${proxyStage}`, name).toMatch(new RegExp(`\\b${name}[:=]`));
    }
  });
});

/**
 * The retry rules, on a real nginx: one upstream closes every connection without answering (what a
 * stopping API does to a kept-alive connection nginx sends on at that moment), the other answers.
 * Reads are re-sent to the other process, the embed page's first call (a read sent as POST) too, any
 * other POST is not: it may have reached a process.
 */
describe.skipIf(!findNginx())('nginx in front of a process that closes connections', () => {
  let nginx: NginxService;
  let answering: Server;
  const closing = createTcpServer((socket) => socket.once('data', () => socket.destroy()));
  let prefix: string;

  beforeAll(async () => {
    answering = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('answered'));
    });
    const [closingPort, answeringPort, portal, viewer] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    await new Promise<void>((resolve) => closing.listen(closingPort, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => answering.listen(answeringPort, '127.0.0.1', resolve));
    prefix = mkdtempSync(path.join(tmpdir(), 'helix-nginx-retry-'));
    nginx = await startNginx({
      prefix,
      values: {
        apis: [`127.0.0.1:${closingPort}`, `127.0.0.1:${answeringPort}`],
        viewers: [`127.0.0.1:${answeringPort}`],
        portalListen: `127.0.0.1:${portal}`,
        viewerListen: `127.0.0.1:${viewer}`,
        webDist: prefix,
        maxBody: '1m',
      },
      ports: [portal!, viewer!],
      quiet: true,
    });
  }, 600_000);
  afterAll(async () => {
    await nginx?.stop();
    closing.close();
    answering?.close();
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  // Round robin: of two requests in a row, one goes first to the closing process.
  const twice = async (path: string, init: RequestInit) => {
    const statuses: number[] = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await fetch(`${nginx.url}${path}`, init)).status);
    return statuses.sort();
  };

  it('re-sends reads and the embed detail POST, never another POST', async () => {
    const post = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"token":"t"}' };
    expect(await twice('/api/health/ready', {})).toEqual([200, 200]);
    expect(await twice('/api/model/embed/detail', post)).toEqual([200, 200]);
    expect(await twice('/api/auth/login', post)).toEqual([200, 502]);
  });
});

/**
 * Live lessons' sockets (LESSON_SOCKET_PATH, /api/lessons/socket.io/, packages/shared/src/lessons.ts)
 * through a real nginx: the WebSocket upgrade reaches the API process with its headers and the
 * connection becomes a tunnel both ways.
 */
describe.skipIf(!findNginx())('nginx in front of the lesson sockets', () => {
  let nginx: NginxService;
  let api: Server;
  let prefix: string;
  const seen: { url?: string; upgrade?: string; connection?: string } = {};

  beforeAll(async () => {
    api = createHttpServer((_req, res) => res.end('not an upgrade'));
    api.on('upgrade', (req, socket) => {
      Object.assign(seen, { url: req.url, upgrade: req.headers.upgrade, connection: req.headers.connection });
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.on('data', (data) => socket.write(`echo:${String(data)}`));
    });
    const [apiPort, portal, viewer] = [await freePort(), await freePort(), await freePort()];
    await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
    prefix = mkdtempSync(path.join(tmpdir(), 'helix-nginx-ws-'));
    nginx = await startNginx({
      prefix,
      values: {
        apis: [`127.0.0.1:${apiPort}`],
        viewers: [`127.0.0.1:${apiPort}`],
        portalListen: `127.0.0.1:${portal}`,
        viewerListen: `127.0.0.1:${viewer}`,
        webDist: prefix,
        maxBody: '1m',
      },
      ports: [portal!, viewer!],
      quiet: true,
    });
  }, 240_000);
  afterAll(async () => {
    await nginx?.stop();
    api?.close();
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  it('passes the WebSocket upgrade of /api/lessons/socket.io/ through, and the tunnel both ways', async () => {
    const url = new URL('/api/lessons/socket.io/?EIO=4&transport=websocket', nginx.url);
    const echoed = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, {
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('upgrade', (res, socket) => {
        expect(res.statusCode).toBe(101);
        socket.once('data', (data) => {
          resolve(String(data));
          socket.destroy();
        });
        socket.write('hello');
      });
      req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    expect(echoed).toBe('echo:hello');
    expect(seen).toEqual({
      url: '/api/lessons/socket.io/?EIO=4&transport=websocket',
      upgrade: 'websocket',
      connection: 'upgrade',
    });
  });
});
