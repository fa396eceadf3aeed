import type { Db } from '../db.ts';
import { markInvitesSent } from './send-invite.ts';

/**
 * The sent markers of a worker's concurrent sends, written together (group commit): a row's marker
 * waits for the statement in progress, if any, and then goes with every marker that arrived meanwhile
 * in one statement (markInvitesSent). Each send still waits for its own marker before its job goes on,
 * so a killed worker repeats no more rows than before (those leased and not marked: the ones in
 * flight), while a bulk invite's 50 concurrent sends need a few statements instead of one per e-mail.
 * A statement that fails is tried once more, alone (another worker's statement touching the same
 * batch may have made it a deadlock victim); then its rows' sends fail as markInviteSent's would.
 */
export function inviteSentMarker(db: Db): (inviteId: number) => Promise<void> {
  let waiting: Array<{ id: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  const write = async () => {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      const ids = group.map((entry) => entry.id);
      try {
        await markInvitesSent(db, ids).catch(() => markInvitesSent(db, ids));
        for (const entry of group) entry.resolve();
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
    writing = false;
  };

  return (inviteId) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ id: inviteId, resolve, reject });
      if (!writing) void write();
    });
}
