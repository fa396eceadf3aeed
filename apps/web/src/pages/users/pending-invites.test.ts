import { describe, expect, it } from 'vitest';
import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import type { OutboxRow } from '../../offline/offline-db';
import { withPendingInvites } from './pending-invites';

const user = (id: number, email: string): TenantUserView => ({
  id,
  name: `User ${id}`,
  email,
  userName: `user${id}`,
  isPassword: true,
  isOwner: false,
  abilities: { view: true, resend: false, delete: true },
  roles: [],
  rolesVersion: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'active',
  lastLoginAt: null,
});

const invite = (seq: number, email: string, state: OutboxRow['state'] = 'pending'): OutboxRow => ({
  seq,
  key: `k${seq}`,
  userId: 1,
  tenant: 'acme',
  kind: 'user.invite',
  target: `invite:${email}`,
  label: `Invite ${email}`,
  method: 'POST',
  path: '/user/invite',
  body: { name: `Invitee ${seq}`, email },
  baseVersion: null,
  state,
  attempts: 0,
  nextAttemptAt: 0,
  createdAt: Date.UTC(2026, 0, 2),
});

describe('pending invites in the users list', () => {
  it('adds each waiting invite as a pending row after the server rows', () => {
    const rows = withPendingInvites(
      [user(1, 'a@x.test')],
      [invite(3, 'b@x.test'), invite(4, 'c@x.test', 'syncing')],
    );
    expect(rows.map((r) => [r.id, r.email, Boolean(r.pending)])).toEqual([
      [1, 'a@x.test', false],
      [-3, 'b@x.test', true],
      [-4, 'c@x.test', true],
    ]);
    expect(rows[1]!.name).toBe('Invitee 3');
  });

  it('leaves out refused invites, other edits and invites the server list already holds', () => {
    const roleEdit = { ...invite(5, 'd@x.test'), kind: 'role.update' };
    const rows = withPendingInvites(
      [user(1, 'a@x.test')],
      [
        invite(2, 'A@x.test'),
        invite(3, 'b@x.test', 'refused'),
        roleEdit,
        invite(6, 'e@x.test'),
        invite(7, 'e@x.test'),
      ],
    );
    expect(rows.map((r) => r.email)).toEqual(['a@x.test', 'e@x.test']);
  });
});
