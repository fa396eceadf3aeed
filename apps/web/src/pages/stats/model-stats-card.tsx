import { Card, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { Model, Tenant } from '../../models/models.api';
import { topTenantRows } from '../../models/stats-series';
import { formatCount } from '../../ui/count-format';

const ModelViewsChart = lazy(() =>
  import('./model-views-chart').then((m) => ({ default: m.ModelViewsChart })),
);

/** Per-model statistics: name, Website Views, Top Tenants and the 30-day chart. */
export function ModelStatsCard({ model, tenants }: { model: Model; tenants: readonly Tenant[] }) {
  const headingId = `stats-model-${model.id}`;
  const top = topTenantRows(model, tenants);
  return (
    <article aria-labelledby={headingId} className="stats-card">
      <Card>
        <h3 id={headingId} className="stats-card-title">
          {model.name}
        </h3>
        <p className="stats-figure">
          Website Views: <strong>{formatCount(model.viewCount)}</strong>
        </p>
        <h4 className="stats-subtitle">Top Tenants</h4>
        {top.length ? (
          <ul className="stats-list" aria-label={`Top Tenants of ${model.name}`}>
            {top.map((t) => (
              <li key={t.id}>
                <span>{t.name}</span>
                <span>{formatCount(t.views)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="stats-none">No views yet</p>
        )}
        {model.viewsByDay && (
          <Suspense fallback={<Skeleton.Node active className="views-chart-skeleton" />}>
            <ModelViewsChart name={model.name} viewsByDay={model.viewsByDay} />
          </Suspense>
        )}
      </Card>
    </article>
  );
}
