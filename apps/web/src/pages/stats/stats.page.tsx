import { Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MSG } from '@helix/shared';
import { LIST_PAGE_SIZE_MAX } from '@helix/shared/schemas/list-query';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError } from '../../ui/notify';
import { QueryEmpty, QueryState } from '../../ui/query-state';
import { PageTitle } from '../../ui/page-title';
import { ClassStatsTable } from './class-stats-table';
import { modelStatsQuery, topTenantsQuery } from './stats.queries';
import { ModelStatsCard } from './model-stats-card';
import { UserStatsTable } from './user-stats-table';
import { ViewsExportButton } from './views-export-button';
import './stats.css';

/**
 * /stats: per-model cards (Model.listing.view) from /model/all and the top users table (User.listing.view,
 * paged and searched by GET /stats/users),
 * the names of the cards' top tenants from /tenant/getAllTenants?ids=…. Only the tenants call has a message ('Failed to get
 * Tenants'); other failures are logged (administration-content 8).
 */
export function StatsPage() {
  const user = useSessionUser();
  // The server decides who reads the statistics (the route guard's `stats` ability) and each part.
  const can = abilitiesOf(user);
  const showModels = can.stats && can.modelStats;
  const showUsers = can.stats && can.userStats;
  // The platform's view (no school's user): every tenant's figures, with the top tenants' names.
  const platform = !can.subscription;
  const loadTenants = platform;
  const modelsQuery = useQuery({ ...modelStatsQuery(), enabled: showModels || showUsers });
  const loading = modelsQuery.isPending;

  const listing = modelsQuery.data ?? null;
  // Only the names of the tenants the cards show (each model's top tenants), asked once the cards'
  // figures are in: not every tenant's (10,000 in the large data set), which delayed the first rows.
  const topTenantIds = [
    ...new Set((listing?.models ?? []).flatMap((m) => (m.topTenants ?? []).map((t) => t.tenant_id))),
  ]
    .slice(0, LIST_PAGE_SIZE_MAX)
    .join(',');

  const tenantsQuery = useQuery({ ...topTenantsQuery(topTenantIds), enabled: loadTenants && !!topTenantIds });
  const tenants = tenantsQuery.data ?? [];
  useEffect(() => {
    if (tenantsQuery.errorUpdatedAt > 0) toastError(MSG.failedGetTenants);
  }, [tenantsQuery.errorUpdatedAt]);

  const models = showModels ? (listing?.models ?? []) : [];
  // Views per class (LTI courses): the school's owner and whoever reads its users' statistics.
  const showClasses = can.classStats;
  const nothingAllowed = !showModels && !showUsers;

  return (
    <section className="page stats-page">
      <PageTitle title="Statistics" />
      <Typography.Title level={1} className="page-title">
        Statistics
      </Typography.Title>
      {/* A customer's own views (the billed count) for the period; platform admins read every tenant's above. */}
      {showModels && !platform && <ViewsExportButton />}
      {(showModels || showUsers) && (
        <QueryState query={modelsQuery} failed={MSG.failedLoadStats} loading="Loading statistics" />
      )}
      {(nothingAllowed || (!showUsers && !loading && !modelsQuery.isError && models.length === 0)) && (
        <QueryEmpty message={MSG.noStatistics} />
      )}
      {models.length > 0 && (
        <section className="stats-section" aria-labelledby="stats-models-title">
          <h2 id="stats-models-title" className="stats-section-title">
            Models
          </h2>
          <div className="stats-grid">
            {models.map((model) => (
              <ModelStatsCard key={model.id} model={model} tenants={tenants} />
            ))}
          </div>
        </section>
      )}
      {showUsers && (
        <section className="stats-section" aria-labelledby="stats-users-title">
          <h2 id="stats-users-title" className="stats-section-title">
            Top users
          </h2>
          <UserStatsTable showTenant={platform} />
        </section>
      )}
      {showClasses && (
        <section className="stats-section" aria-labelledby="stats-classes-title">
          <h2 id="stats-classes-title" className="stats-section-title">
            Views per class
          </h2>
          <ClassStatsTable />
        </section>
      )}
    </section>
  );
}
