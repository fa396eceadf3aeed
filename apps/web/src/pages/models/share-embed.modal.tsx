import { CopyOutlined } from '@ant-design/icons';
import { Button, Checkbox, DatePicker, Input, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { EMBED_FLAGS, MSG, TRANSPARENT_BACKGROUND, embedFlagLabel } from '@helix/shared';
import { copyText } from '../../models/copy-text';
import {
  applyLinkOptionsChange,
  DEFAULT_EMBED_SETTINGS,
  type LinkOptions,
} from '../../models/embed-settings';
import { createEmbedToken, type Model } from '../../models/models.api';
import { embedSnippet, linkFor, type LinkKind } from '../../models/share-links';
import { toastError, toastSuccess } from '../../ui/notify';
import { AllowedHostsField, checkAllowedHosts } from '../links/allowed-hosts-field';

/** Each feature in words (the Links page's words); its stored name (the spec's flag) as the tooltip. */
const featureOption = (flag: string) => ({ label: embedFlagLabel(flag), value: flag, title: flag });
const FLAG_OPTIONS: { label: string; value: string; title: string }[] = EMBED_FLAGS.map(featureOption);
/** Offered only when the user's permissions (and so their plan) include Background.transparent. */
const TRANSPARENT_OPTION = featureOption(TRANSPARENT_BACKGROUND);

async function copy(text: string): Promise<void> {
  if (await copyText(text)) toastSuccess(MSG.copied);
  else toastError(MSG.clipboardFailed);
}

/**
 * Share or Embed: the feature checklist (all on; background and background_color exclusive, and with
 * Background.transparent a transparent_background option exclusive with both), an optional expiry date,
 * the sites that may show it (none: any site), Create Link (POST /model/embed), and the link (plus the iframe code for Embed)
 * with copy buttons. Owners list and revoke links at /user/settings/links.
 */
export function ShareEmbedModal({
  kind,
  model,
  allowTransparent = false,
  onClose,
}: {
  kind: LinkKind;
  model: Model;
  allowTransparent?: boolean;
  onClose(): void;
}) {
  const [options, setOptions] = useState<LinkOptions>({
    settings: [...DEFAULT_EMBED_SETTINGS],
    transparentBackground: false,
  });
  const [link, setLink] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<Dayjs | null>(null);
  const [hostsText, setHostsText] = useState('');
  const [hostsError, setHostsError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const verb = kind === 'share' ? 'Share' : 'Embed';

  const createLink = async () => {
    const hosts = checkAllowedHosts(hostsText);
    if (!hosts.ok) {
      setHostsError(hosts.error);
      return;
    }
    setBusy(true);
    try {
      // The link works through the whole chosen day (the viewer's time zone).
      const expiresAt = expiry ? expiry.endOf('day').toISOString() : null;
      const { token } = await createEmbedToken(
        model.id,
        options.settings,
        expiresAt,
        allowTransparent && options.transparentBackground,
        kind,
        hosts.hosts,
      );
      setLink(linkFor(kind, token, window.location.origin));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const snippet = link ? embedSnippet(link, `${model.name} viewer`) : '';

  return (
    <Modal open title={`${verb} ${model.name}`} footer={null} onCancel={onClose} width={560} destroyOnHidden>
      <fieldset className="embed-features">
        <legend>Features</legend>
        <Checkbox.Group<string>
          options={allowTransparent ? [...FLAG_OPTIONS, TRANSPARENT_OPTION] : FLAG_OPTIONS}
          value={
            options.transparentBackground ? [...options.settings, TRANSPARENT_BACKGROUND] : options.settings
          }
          onChange={(next) => {
            setOptions((previous) => applyLinkOptionsChange(previous, next));
            // A link carries the features it was made with; a changed list needs a new link.
            setLink(null);
          }}
        />
      </fieldset>
      <div className="share-expiry">
        <label htmlFor="link-expiry">Expires (optional)</label>
        <DatePicker
          id="link-expiry"
          value={expiry}
          placeholder="No expiry"
          disabledDate={(day) => day.isBefore(dayjs(), 'day')}
          onChange={(day) => {
            setExpiry(day);
            setLink(null);
          }}
        />
      </div>
      <AllowedHostsField
        id="link-allowed-hosts"
        value={hostsText}
        error={hostsError}
        onChange={(text) => {
          setHostsText(text);
          setHostsError(null);
          setLink(null);
        }}
      />
      <Button type="primary" loading={busy} onClick={() => void createLink()}>
        Create Link
      </Button>
      {link && (
        <div className="share-result">
          <div className="share-result-row">
            <Input readOnly value={link} aria-label={`${verb} link`} onFocus={(e) => e.target.select()} />
            <Button icon={<CopyOutlined />} onClick={() => void copy(link)}>
              Copy link
            </Button>
          </div>
          {kind === 'embed' && (
            <>
              <Input.TextArea
                readOnly
                value={snippet}
                aria-label="Embed code"
                autoSize={{ minRows: 3, maxRows: 6 }}
                onFocus={(e) => e.target.select()}
              />
              <div>
                <Button icon={<CopyOutlined />} onClick={() => void copy(snippet)}>
                  Copy code
                </Button>
              </div>
            </>
          )}
        </div>
      )}
    </Modal>
  );
}
