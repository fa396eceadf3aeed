import { Checkbox, DatePicker, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { EmbedLinkExpiry } from '@helix/shared/schemas/embed-link';
import { setLinkExpiry, type EmbedLinkView } from '../../models/links.api';
import { toastSuccess } from '../../ui/notify';

/**
 * Change a link's expiry: a day (the link works through the whole day, in the viewer's time zone, as
 * in the Share/Embed dialog) or no expiry. Checked with the request's own schema before it is sent;
 * the server checks the future against its clock again.
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
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!never && !day) {
      setError(MSG.linkExpiryPick);
      return;
    }
    const input = { id: link.id, expiresAt: never || !day ? null : day.endOf('day').toISOString() };
    const checked = EmbedLinkExpiry.safeParse(input);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? MSG.linkExpiryPast);
      return;
    }
    setSaving(true);
    try {
      onSaved(await setLinkExpiry(input));
      toastSuccess(MSG.linkExpiryUpdated);
    } catch {
      // The client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={MSG.linkExpiryTitle}
      okText="Save"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      width={400}
      destroyOnHidden
    >
      <p>{link.model.name}</p>
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
            setError(null);
          }}
        />
        <Checkbox
          checked={never}
          onChange={(e) => {
            setNever(e.target.checked);
            setError(null);
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
    </Modal>
  );
}
