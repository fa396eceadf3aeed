import { Alert, Button } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import type { InvitationView } from '@helix/shared/schemas/invitation';
import { requestInvitationRenewal } from '../../api/invitation.api';
import { expiredOn } from './expiry-text';

/**
 * An expired invitation: when it expired, whom to ask, and a button that asks them (the inviter or
 * the school's owner gets an e-mail; the new link comes to the invitee's address).
 */
export function AskNewInvitation(props: {
  invitation: Extract<InvitationView, { state: 'expired' }>;
  token: string;
}) {
  const { invitation } = props;
  const [asked, setAsked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    setBusy(true);
    try {
      setAsked((await requestInvitationRenewal(props.token)).message);
    } catch {
      // The client has shown the server's message.
      setBusy(false);
    }
  };

  return (
    <>
      <Alert
        type="warning"
        showIcon
        title={MSG.invitationExpired(expiredOn(invitation.expiresAt))}
        description={
          invitation.inviterName
            ? MSG.invitationAskNew(invitation.inviterName, invitation.school.name)
            : MSG.invitationAskSomeone
        }
        data-testid="invitation-dead"
      />
      {asked ? (
        <Alert type="success" showIcon title={asked} className="invitation-asked" role="status" />
      ) : (
        <Button type="primary" block loading={busy} onClick={() => void ask()} className="invitation-ask">
          {MSG.invitationAskButton}
        </Button>
      )}
    </>
  );
}
