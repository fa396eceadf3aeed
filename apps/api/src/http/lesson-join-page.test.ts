import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { lessonJoin } from './server-render-guest.ts';

const at = (code?: string) =>
  lessonJoin({ params: code === undefined ? {} : { code } } as unknown as Request);

describe('the live lesson join page the server renders', () => {
  it('renders /join, and /join/{code} once per code', () => {
    expect(at()).toEqual({ key: '/join', path: '/join' });
    expect(at('K7PM2Q')).toEqual({ key: '/join/K7PM2Q', path: '/join/K7PM2Q' });
    expect(at('k7pm2q')).toEqual({ key: '/join/k7pm2q', path: '/join/k7pm2q' });
  });

  it('leaves what is not a code to the app shell (no render per made-up path)', () => {
    for (const code of ['K7PM2', 'K7PM2QX', 'K7PM0Q', '%3Cb%3E', '../../x']) expect(at(code)).toBeNull();
  });
});
