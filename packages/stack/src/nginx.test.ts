import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localNginxConfig, NGINX_TEMPLATE, renderTemplate } from './nginx.ts';
import { ROOT } from './paths.ts';

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
