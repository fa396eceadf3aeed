import { Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import {
  changeLink,
  type EmbedLinkView,
  type LinkChange,
  type LinkChangeInput,
} from '../../models/links.api';
import { toastSuccess } from '../../ui/notify';

/** The form's request, or the message that says what is wrong with it (shown in the form). */
export type LinkChangeCheck<C extends LinkChange> = { input: LinkChangeInput<C> } | { error: string };

/**
 * One change of a link in a dialog (its expiry, the sites that may show it): the model's name, the
 * form, and Save, which checks the form with the request's own schema (`check`) before it is sent;
 * the server checks again. A refused change keeps the dialog open (the client has shown the server's
 * message).
 */
export function LinkChangeModal<C extends LinkChange>({
  link,
  change,
  title,
  width,
  saved,
  check,
  onSaved,
  onClose,
  children,
}: {
  link: EmbedLinkView;
  change: C;
  title: string;
  width: number;
  /** The toast once the server took it. */
  saved: string;
  check(): LinkChangeCheck<C>;
  onSaved(link: EmbedLinkView): void;
  onClose(): void;
  /** The form: `error` is the check's message, `clearError` is called on every edit. */
  children(error: string | null, clearError: () => void): ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const checked = check();
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setSaving(true);
    try {
      onSaved(await changeLink(change, checked.input));
      toastSuccess(saved);
    } catch {
      // The client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText="Save"
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      width={width}
      destroyOnHidden
    >
      <p>{link.model.name}</p>
      {children(error, () => setError(null))}
    </Modal>
  );
}
