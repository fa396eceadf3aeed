import { useState } from 'react';
import { MSG } from '@helix/shared';
import type { EmbedLinkView } from '../../models/links.api';
import { AllowedHostsField, checkAllowedHosts } from './allowed-hosts-field';
import { LinkChangeModal, type LinkChangeCheck } from './link-change.modal';

/**
 * Change where a link may be shown: the sites, one per line, or none for any site. Pages on other
 * sites stop showing the model within a few seconds (the embed path's cache).
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

  const check = (): LinkChangeCheck<'hosts'> => {
    const checked = checkAllowedHosts(text);
    return checked.ok ? { input: { id: link.id, allowedHosts: checked.hosts } } : { error: checked.error };
  };

  return (
    <LinkChangeModal
      link={link}
      change="hosts"
      title={MSG.embedHostsTitle}
      width={440}
      saved={MSG.embedHostsUpdated}
      check={check}
      onSaved={onSaved}
      onClose={onClose}
    >
      {(error, clearError) => (
        <AllowedHostsField
          id="link-allowed-hosts"
          value={text}
          error={error}
          onChange={(next) => {
            setText(next);
            clearError();
          }}
        />
      )}
    </LinkChangeModal>
  );
}
