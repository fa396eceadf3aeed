import { Descriptions } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatCount } from '../../ui/count-format';
import { viewsSummaryQuery } from './subscription-queries';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The subscription page's usage: views used of the allowance, the grace band and the period's end. */
export function ViewsUsage() {
  // A server-rendered page came with it (its dehydrated state); the counter is a nicety here: a
  // failure shows nothing.
  const { data: usage } = useQuery(viewsSummaryQuery);
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
