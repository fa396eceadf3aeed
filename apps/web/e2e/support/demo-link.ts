import { expect } from 'vitest';
import { DEMO } from './accounts.ts';
import { appUrl } from './browser.ts';

/**
 * An embed link's token for the demo school's first model with these viewer features, made by the demo
 * owner through the API (as the Share/Embed dialog would).
 */
export async function demoEmbedToken(settings: string[] = []): Promise<string> {
  const post = async (route: string, body: unknown, token?: string) => {
    const res = await fetch(appUrl(route), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(res.status, route).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };
  const { apiToken } = (await post('/api/user/login', DEMO.owner)) as { apiToken: string };
  const listing = await fetch(appUrl('/api/t/demo/model/all'), {
    headers: { authorization: `Bearer ${apiToken}` },
  });
  const { models } = (await listing.json()) as { models: { id: number }[] };
  const { token } = (await post('/api/t/demo/model/embed', { id: models[0]!.id, settings }, apiToken)) as {
    token: string;
  };
  return token;
}
