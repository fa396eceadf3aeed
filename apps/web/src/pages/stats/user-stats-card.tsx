import { Card } from 'antd';
import type { UserStats } from '../../models/models.api';
import { formatCount } from '../../ui/count-format';

/** Per-user statistics: name, email, and the models they opened with view counts. */
export function UserStatsCard({ user }: { user: UserStats }) {
  const headingId = `stats-user-${user.id}`;
  return (
    <article aria-labelledby={headingId} className="stats-card">
      <Card>
        <h3 id={headingId} className="stats-card-title">
          {user.name}
        </h3>
        <p className="stats-email">{user.email}</p>
        {user.models.length ? (
          <ul className="stats-list" aria-label={`Models viewed by ${user.name}`}>
            {user.models.map((m) => (
              <li key={m.medicalModelId}>
                <span>{m.modelName}</span>
                <span>{formatCount(m.viewCount)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="stats-none">No views yet</p>
        )}
      </Card>
    </article>
  );
}
