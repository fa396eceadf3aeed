import { Alert, ConfigProvider, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import type { InvitationSchool, InvitationView } from '@helix/shared/schemas/invitation';
import { brandTheme } from '../../branding/use-white-label';
import { Logo } from '../../components/logo';
import { PageTitle } from '../../ui/page-title';
import { QueryFailed, QueryLoading } from '../../ui/query-state';
import { AskNewInvitation } from './ask-new-invitation';
import { InvitationJoinForm } from './invitation.form';
import { invitationQuery } from './invitation.queries';

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'no-token' } | InvitationView;

/**
 * /invitation?token= (docs/invitation-page.md): the invitee's first page. On opening it asks the server
 * what the link opens, then shows the school's brand and either the join form (e-mail read-only, name
 * filled in, password, terms) or why the link no longer works and whom to ask for a new one.
 */
export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const query = useQuery({ ...invitationQuery(token ?? ''), enabled: !!token });
  // Asking again (a retry, or a link found dead meanwhile) shows the skeleton until the answer is in.
  const loaded: Loaded = !token
    ? { state: 'no-token' }
    : query.isFetching || query.isPending
      ? { state: 'loading' }
      : query.isError
        ? { state: 'failed' }
        : query.data;
  const load = () => void query.refetch();

  const school = 'school' in loaded ? loaded.school : null;
  const page = (
    <div
      className="auth-layout"
      style={school ? { background: school.backgroundColor } : undefined}
      data-testid="invitation-page"
    >
      <header className="auth-header">
        {/* While the invitation loads, no Helix logo flashes before the school's. */}
        {school ? (
          <SchoolMark school={school} />
        ) : loaded.state === 'loading' ? (
          <span className="logo" aria-hidden="true" style={{ minHeight: 32 }} />
        ) : (
          <Logo to="/login" />
        )}
      </header>
      <main className="auth-card">
        <PageTitle title={school ? MSG.invitationTitle(school.name) : 'Invitation'} />
        <Typography.Title level={1} className="auth-title">
          {school ? MSG.invitationTitle(school.name) : 'Invitation'}
        </Typography.Title>
        <InvitationBody loaded={loaded} token={token} onDead={load} retry={load} />
      </main>
    </div>
  );
  return school ? <ConfigProvider theme={brandTheme(school)}>{page}</ConfigProvider> : page;
}

/** The school's logo and name in its primary colour, as on its white-label pages. */
function SchoolMark({ school }: { school: InvitationSchool }) {
  return (
    <span className="logo" data-testid="invitation-brand">
      {school.brandLogo ? (
        <img src={school.brandLogo} alt="" height={32} className="brand-logo" data-testid="invitation-logo" />
      ) : null}
      <span className="logo-text" style={{ color: school.primaryColor }}>
        {school.name}
      </span>
    </span>
  );
}

function InvitationBody(props: {
  loaded: Loaded;
  token: string | null;
  onDead: () => void;
  retry: () => void;
}) {
  const { loaded } = props;
  switch (loaded.state) {
    case 'loading':
      return <QueryLoading label={MSG.invitationLoading} rows={5} />;
    case 'failed':
      return <QueryFailed message={MSG.invitationFailedLoad} onRetry={props.retry} />;
    case 'no-token':
      return <Alert type="info" showIcon title={MSG.invitationNoToken} />;
    case 'invalid':
      return (
        <Alert
          type="error"
          showIcon
          title={MSG.invitationUnknown}
          description={MSG.invitationAskSomeone}
          data-testid="invitation-dead"
        />
      );
    case 'expired':
      return <AskNewInvitation invitation={loaded} token={props.token ?? ''} />;
    case 'used':
      return (
        <>
          <Alert type="info" showIcon title={MSG.invitationUsed} data-testid="invitation-dead" />
          <p className="auth-switch">
            <Link to="/login">{MSG.invitationSignIn}</Link>
          </p>
        </>
      );
    case 'open':
      return (
        <>
          <p>{MSG.invitationIntro(loaded.school.name)}</p>
          <InvitationJoinForm invitation={loaded} token={props.token ?? ''} onDead={props.onDead} />
        </>
      );
  }
}
