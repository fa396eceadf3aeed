import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@helix/shared/schemas/audit';
import { createHarness, type Harness } from '../../test/harness.ts';
import { AUDIT_ACTION } from '../http/audited.ts';

/**
 * Every route that can change something is either audited (docs/audit-log.md) or named here with the
 * reason it is not. A new POST/PUT/PATCH/DELETE route fails this test until it is one or the other.
 */
const EXEMPT: Record<string, string> = {
  // No actor yet, or the actor's own session: sign-in is not a change of the school.
  'POST /api/user/login': 'sign-in',
  'POST /api/user/register': 'sign-up: creates the tenant, nobody to attribute it to yet',
  'POST /api/user/join': 'accepting an invitation (the invite itself is audited)',
  'POST /api/user/invitation/accept': 'accepting an invitation on its page (the invite itself is audited)',
  'POST /api/user/invitation/renewal-request':
    'an invitee asks for a new link (no session; the resend is audited)',
  'POST /api/validate-user': 'a lookup',
  'POST /api/user/send_password_reset_token': 'no session',
  'POST /api/user/reset_password': 'no session; a password is never recorded',
  'POST /api/user/validate': 'Google sign-in',
  'POST /api/user/validate-login': 'Google sign-in',
  'POST /api/user/logout': 'ends the own session',
  'POST /api/t/:tenant/user/logout': 'ends the own session',
  'POST /api/stripe/webhook': "Stripe's own event, kept in its ledger (ProcessedStripeEvent)",
  'POST /api/newsletter/unsubscribe': 'a mail recipient, no session',
  // Reads sent as POST (the specification's payloads).
  'POST /api/tenant/custom-branding-detail': 'a read',
  'POST /api/t/:tenant/user/detail': 'a read',
  'POST /api/t/:tenant/role/permissions': 'a read',
  'POST /api/t/:tenant/model/viewer-url': 'a read (a viewer URL)',
  'POST /api/t/:tenant/subscription/preview': 'a read (the price of a change)',
  'POST /api/t/:tenant/subscription/detail': "a read (the billing portal's address)",
  'POST /api/t/:tenant/subscription/latest-invoice/payment-invoice': 'a read (an invoice to pay)',
  'POST /api/model/embed/detail': 'a viewer opening a link',
  // Viewing, not changing.
  'POST /api/t/:tenant/model/offline-copy': 'pinning a model on a device',
  'POST /api/t/:tenant/model/offline-view': 'views counted offline',
  'POST /api/t/:tenant/support': 'a help request (kept in its own table with its sender)',
  'POST /api/logs': "the web app's error reports",
  // LTI 1.3 (docs/lti.md): forms a learning platform or a teacher in it posts, no Helix session.
  'POST /api/lti/login': "a platform's login initiation",
  'POST /api/lti/launch': 'a launch from a learning platform',
  'POST /api/lti/deep-link': "a teacher's choice in the picker, posted back to the platform",
  // Live lessons (docs/live-lessons.md): teaching with the viewer, like opening it; nothing of the
  // school's set-up changes, and the Lesson row itself keeps who started it, when, and when it ended.
  'POST /api/t/:tenant/lessons': 'starting a live lesson (the Lesson row records it)',
  'POST /api/t/:tenant/lessons/:id/end': 'ending a live lesson (the Lesson row records it)',
  'POST /api/lessons/join': 'a pupil joining a live lesson (a guest: nothing stored beyond the lesson)',
  'POST /api/lessons/join/lti': 'a learner joining a live lesson from a course launch',
};

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

interface Found {
  key: string;
  actions: string[];
}

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: { stack?: Layer[] } & Record<symbol, unknown>;
  rawPath?: unknown;
};

/** Every route of the app with its method and full path, and the audit actions on it. */
function routesOf(stack: Layer[], prefix: string, out: Found[]) {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const actions = layer.route.stack
        .map((l) => (l.handle as Record<symbol, unknown>)[AUDIT_ACTION])
        .filter((a): a is string => typeof a === 'string');
      for (const method of Object.keys(layer.route.methods).filter((m) => MUTATING.has(m))) {
        for (const path of paths) out.push({ key: `${method.toUpperCase()} ${prefix}${path}`, actions });
      }
    } else if (Array.isArray(layer.handle.stack)) {
      const raw = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      routesOf(layer.handle.stack, prefix + raw, out);
    }
  }
}

let h: Harness;
let routes: Map<string, string[]>;

beforeAll(async () => {
  h = await createHarness();
  const found: Found[] = [];
  routesOf((h.app as Express & { router: { stack: Layer[] } }).router.stack, '', found);
  routes = new Map();
  // A route may be declared twice (an audited() line before the route itself): the union counts.
  for (const { key, actions } of found) routes.set(key, [...(routes.get(key) ?? []), ...actions]);
});
afterAll(async () => {
  await h?.close();
});

describe('the audit covers every route that changes something', () => {
  it('finds the routes', () => {
    expect(routes.size).toBeGreaterThan(40);
    expect(routes.get('POST /api/t/:tenant/user/invite')).toEqual(['user.invite']);
  });

  it('each mutating route is audited or exempt with a reason', () => {
    const missing = [...routes].filter(([key, actions]) => actions.length === 0 && !(key in EXEMPT));
    expect(missing.map(([key]) => key)).toEqual([]);
  });

  it('no route is both, and no exemption names a route that is gone', () => {
    const both = [...routes].filter(([key, actions]) => actions.length > 0 && key in EXEMPT);
    expect(both.map(([key]) => key)).toEqual([]);
    expect(Object.keys(EXEMPT).filter((key) => !routes.has(key))).toEqual([]);
  });

  it('each audited route has one action, from the catalogue', () => {
    for (const [key, actions] of routes) {
      if (actions.length === 0) continue;
      expect(actions, key).toHaveLength(1);
      expect(AUDIT_ACTIONS, key).toContain(actions[0]);
    }
  });
});
