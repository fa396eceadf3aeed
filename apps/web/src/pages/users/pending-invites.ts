import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import type { OutboxRow } from '../../offline/offline-db';

export type UserRow = TenantUserView & { pending?: boolean };

/**
 * The users list as it will be once the queued single invites are sent: each waiting invite is a row
 * marked pending (a negative id: it has none on the server yet). A refused invite is not a row (it
 * stays in the Outbox panel with the server's reason), nor one the server's list already holds.
 */
export function withPendingInvites(users: TenantUserView[], outbox: OutboxRow[]): UserRow[] {
  const rows: UserRow[] = [...users];
  const known = new Set(users.map((u) => u.email.toLowerCase()));
  for (const entry of outbox) {
    if (entry.kind !== 'user.invite' || (entry.state !== 'pending' && entry.state !== 'syncing')) continue;
    const body = entry.body as { name: string; email: string };
    if (known.has(body.email.toLowerCase())) continue;
    known.add(body.email.toLowerCase());
    rows.push({
      id: -(entry.seq ?? 0),
      name: body.name,
      email: body.email,
      userName: '',
      isPassword: false,
      isOwner: false,
      roles: [],
      rolesVersion: 0,
      createdAt: new Date(entry.createdAt).toISOString(),
      status: 'invited',
      lastLoginAt: null,
      // Not on the server yet: nothing to do with it until it is.
      abilities: { view: false, resend: false, delete: false },
      pending: true,
    });
  }
  return rows;
}
