import { Modal } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { setLinkHosts, type EmbedLinkView } from '../../models/links.api';
import { toastSuccess } from '../../ui/notify';
import { AllowedHostsField, checkAllowedHosts } from './allowed-hosts-field';

/**
 * Change where a link may be shown (POST /model/links/hosts): the sites, one per line, or none for any
 * site. Checked with the request's own schema before it is sent; the server checks again. Pages on
 * other sites stop showing the model within a few seconds (the embed path's cache).
 */
export function LinkHostsModal({
  link,
  onSaved,
  onClose,
}: {
  link: EmbedLinkView;
  onSaved(link: EmbedLinkView): void;
  onClose(): void;
}) {
  const [text, setText] = useState(link.allowedHosts.join('\n'));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const checked = checkAllowedHosts(text);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setSaving(true);
    try {
      onSaved(await setLinkHosts({ id: link.id, allowedHosts: checked.hosts }));
      toastSuccess(MSG.embedHostsUpdated);
    } catch {
      // The client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={MSG.embedHostsTitle}
      okText="Save"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      width={440}
      destroyOnHidden
    >
      <p>{link.model.name}</p>
      <AllowedHostsField
        id="link-allowed-hosts"
        value={text}
        error={error}
        onChange={(next) => {
          setText(next);
          setError(null);
        }}
      />
    </Modal>
  );
}
