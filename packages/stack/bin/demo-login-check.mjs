#!/usr/bin/env node
// Signs in as the demo owner on a running portal and checks what a visitor would: a live plan and a
// model grid that is not empty. Used by bare-clone-check.sh after each `npm start` (a fresh
// stripe-local beside a database that keeps the old Stripe ids must still converge).
// Usage: node packages/stack/bin/demo-login-check.mjs http://127.0.0.1:3000 [seconds to keep checking]
// It waits up to 90 s for the first good answer, then every check during the held seconds must pass.
const [base, holdArg] = process.argv.slice(2);
const holdSeconds = Number(holdArg ?? 0);
const LIVE = new Set(['active', 'trialing']);

async function call(path, init = {}) {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function checkOnce() {
  const login = await call('/api/user/login', {
    method: 'POST',
    body: JSON.stringify({ email: 'owner@demo.helix.local', password: 'owner-demo-2026' }),
  });
  const auth = { authorization: `Bearer ${login.apiToken}` };
  const info = await call(`/api/t/${login.tenant}/user/info`, { headers: auth });
  const status = info.subscription?.status ?? 'none';
  if (!LIVE.has(status)) throw new Error(`the demo owner's plan is "${status}", not live`);
  const models = await call(`/api/t/${login.tenant}/model/all`, { headers: auth });
  const count = Array.isArray(models) ? models.length : (models.models ?? models.data ?? []).length;
  if (!count) throw new Error(`the demo owner sees no models: ${JSON.stringify(models).slice(0, 200)}`);
  return `plan ${status}, ${count} models`;
}

// Converge first: after a restart beside a fresh stripe-local the demo plan is made again through
// Stripe's webhook, which a loaded machine may deliver some seconds after "Helix is running".
const convergeBy = Date.now() + 90_000;
let last;
for (;;) {
  try {
    last = await checkOnce();
    break;
  } catch (err) {
    if (Date.now() > convergeBy) throw err;
    await new Promise((r) => setTimeout(r, 2000));
  }
}
// Then hold: the plan must stay live (a later event must not end it).
const until = Date.now() + holdSeconds * 1000;
do {
  last = await checkOnce();
  if (Date.now() < until) await new Promise((r) => setTimeout(r, 3000));
} while (Date.now() < until);
console.log(`[demo] owner@demo.helix.local signs in: ${last}`);
