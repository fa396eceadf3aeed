import { Checkbox, DatePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { EmbedLinkExpiry } from '@helix/shared/schemas/embed-link';
import type { EmbedLinkView } from '../../models/links.api';
import { LinkChangeModal, type LinkChangeCheck } from './link-change.modal';

/**
 * Change a link's expiry: a day (the link works through the whole day, in the viewer's time zone, as
 * in the Share/Embed dialog) or no expiry. The server checks the future against its clock again.
 */
export function LinkExpiryModal({
  link,
  onSaved,
  onClose,
}: {
  link: EmbedLinkView;
  onSaved(link: EmbedLinkView): void;
  onClose(): void;
}) {
  const [day, setDay] = useState<Dayjs | null>(link.expiresAt ? dayjs(link.expiresAt) : null);
  const [never, setNever] = useState(link.expiresAt === null);

  const check = (): LinkChangeCheck<'expiry'> => {
    if (!never && !day) return { error: MSG.linkExpiryPick };
    const input = { id: link.id, expiresAt: never || !day ? null : day.endOf('day').toISOString() };
    const checked = EmbedLinkExpiry.safeParse(input);
    return checked.success ? { input } : { error: checked.error.issues[0]?.message ?? MSG.linkExpiryPast };
  };

  return (
    <LinkChangeModal
      link={link}
      change="expiry"
      title={MSG.linkExpiryTitle}
      width={400}
      saved={MSG.linkExpiryUpdated}
      check={check}
      onSaved={onSaved}
      onClose={onClose}
    >
      {(error, clearError) => (
        <div className="link-expiry-form">
          <label htmlFor="link-new-expiry">Expires</label>
          <DatePicker
            id="link-new-expiry"
            value={never ? null : day}
            disabled={never}
            placeholder="Pick a day"
            disabledDate={(d) => d.isBefore(dayjs(), 'day')}
            status={error ? 'error' : undefined}
            onChange={(d) => {
              setDay(d);
              clearError();
            }}
          />
          <Checkbox
            checked={never}
            onChange={(e) => {
              setNever(e.target.checked);
              clearError();
            }}
          >
            {MSG.linkNoExpiry}
          </Checkbox>
          {error && (
            <Typography.Text type="danger" role="alert">
              {error}
            </Typography.Text>
          )}
        </div>
      )}
    </LinkChangeModal>
  );
}
