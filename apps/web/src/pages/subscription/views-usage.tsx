import { Descriptions } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { ViewsSummary } from '@helix/shared/schemas/model';
import { fetchViewsSummary } from '../../api/views-usage.api';
import { FIRST_ANSWER, peekFirstAnswer, takeFirstAnswer } from '../../prerender/first-answers';
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
  // A drawn subscription page came with it (src/prerender/first-answers.ts).
  const [usage, setUsage] = useState<ViewsSummary | null>(
    () => (peekFirstAnswer(FIRST_ANSWER.viewsSummary) as ViewsSummary | undefined) ?? null,
  );
  const seeded = useRef(usage !== null);
  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      takeFirstAnswer(FIRST_ANSWER.viewsSummary);
      return;
    }
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
