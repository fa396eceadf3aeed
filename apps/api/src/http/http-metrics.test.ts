import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { routeLabel } from './http-metrics.ts';

const req = (fields: Partial<Request>) => ({ baseUrl: '', originalUrl: '/', ...fields }) as Request;

describe('the route label of a request', () => {
  it('is the matched pattern, with the tenant as :tenant, never its id', () => {
    expect(
      routeLabel(
        req({ baseUrl: '/api/t/42', route: { path: '/user/info' }, originalUrl: '/api/t/42/user/info' }),
      ),
    ).toBe('/api/t/:tenant/user/info');
    expect(routeLabel(req({ baseUrl: '/api', route: { path: '/model/embed/detail' } }))).toBe(
      '/api/model/embed/detail',
    );
  });

  it('is "unmatched" for an API call no route took and "web" for pages and assets', () => {
    expect(routeLabel(req({ originalUrl: '/api/nothing/here' }))).toBe('unmatched');
    expect(routeLabel(req({ originalUrl: '/user/home' }))).toBe('web');
  });
});
