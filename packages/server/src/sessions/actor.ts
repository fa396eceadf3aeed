import type { Permission } from '@helix/shared';
import type { Session } from '../db.ts';
import type { SessionUserRecord } from './session-user.include.ts';

/** The caller of a request, as authenticate() (session.service.ts) finds it from the session token. */
export interface Actor {
  user: SessionUserRecord;
  tenant: SessionUserRecord['tenant'];
  permissions: Permission[];
  session: Session;
}

/** What the policy rules read of the caller (an Actor has it all; the session presenter too). */
export type PolicyActor = Pick<Actor, 'user' | 'tenant' | 'permissions'>;
