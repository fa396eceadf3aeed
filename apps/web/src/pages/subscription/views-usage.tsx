import { Descriptions } from 'antd';
import { useEffect, useState } from 'react';
import type { ViewsSummary } from '@helix/shared/schemas/model';
import { fetchViewsSummary } from '../../api/views-usage.api';
import { formatCount } from '../../ui/count-format';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The subscription page's usage: views used of the allowance, the grace band and the period's end. */
export function ViewsUsage() {
  const [usage, setUsage] = useState<ViewsSummary | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchViewsSummary(controller.signal)
      .then(setUsage)
      .catch(() => undefined); // the plan facts above still show; the counter is a nicety here
    return () => controller.abort();
  }, []);
  if (!usage) return null;
  const allowance = usage.viewLimit + usage.additionalViews;
  return (
    <Descriptions
      className="views-usage"
      data-testid="views-usage"
      title="Views this period"
      column={1}
      size="small"
      bordered
      items={[
        {
          key: 'used',
          label: 'Used',
          children: usage.viewLimit
            ? `${formatCount(usage.viewCount)} of ${formatCount(allowance)}`
            : `${formatCount(usage.viewCount)} (unlimited)`,
        },
        ...(usage.viewLimit
          ? [
              {
                key: 'grace',
                label: 'Grace',
                children:
                  usage.refuseAt === null
                    ? 'Views past the allowance are served and reported as additional views'
                    : `${formatCount(usage.graceViews)} more views keep embeds working; they stop at ${formatCount(usage.refuseAt)}`,
              },
            ]
          : []),
        { key: 'end', label: 'Period ends', children: day(usage.periodEnd) },
      ]}
    />
  );
}
