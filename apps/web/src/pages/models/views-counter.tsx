import { additionalViewsInfo, viewsCounterText } from '../../models/model-listing';
import type { ModelViews } from '../../models/models.api';

/** 'Views: 120 / 10,000' or 'Unlimited Views', with the additional-view lines when allowed. */
export function ViewsCounter({ views, showAdditional }: { views: ModelViews; showAdditional: boolean }) {
  const extra = showAdditional ? additionalViewsInfo(views) : null;
  return (
    <div className="views-counter" data-testid="views-counter">
      <span className="views-counter-main">{viewsCounterText(views)}</span>
      {extra && (
        <>
          <span className="views-counter-extra">{extra.used}</span>
          <span className="views-counter-extra">{extra.price}</span>
        </>
      )}
    </div>
  );
}
