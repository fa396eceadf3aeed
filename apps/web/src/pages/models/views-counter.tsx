import { additionalViewsInfo, viewsCounterText, viewsPeriodText } from '../../models/model-listing';
import type { ModelViews } from '../../models/models.api';

/**
 * 'Views: 120 / 10,000' or 'Unlimited Views', with the additional-view lines when allowed. Until the
 * listing has answered (views null) an empty box of the same height holds the place, so the grid
 * below does not jump when the figures arrive.
 */
export function ViewsCounter({
  views,
  showAdditional,
}: {
  views: ModelViews | null;
  showAdditional: boolean;
}) {
  const boxClass = showAdditional ? 'views-counter has-extra' : 'views-counter';
  if (!views) return <div className={boxClass} aria-hidden="true" />;
  const extra = showAdditional ? additionalViewsInfo(views) : null;
  return (
    <div className={boxClass} data-testid="views-counter">
      <span className="views-counter-main">{viewsCounterText(views)}</span>
      {views.viewLimit > 0 && (
        <span className="views-counter-extra" data-testid="views-period">
          {viewsPeriodText(views)}
        </span>
      )}
      {extra && (
        <>
          <span className="views-counter-extra">{extra.used}</span>
          <span className="views-counter-extra">{extra.price}</span>
        </>
      )}
    </div>
  );
}
