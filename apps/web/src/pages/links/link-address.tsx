import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Input, Typography, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import { copyText } from '../../models/copy-text';
import type { EmbedLinkView } from '../../models/links.api';
import { embedSnippet, linkFor } from '../../models/share-links';
import { toastError } from '../../ui/notify';

/** How long a copy button says "Copied". */
const COPIED_MS = 2_000;

/**
 * Copies `text`, then says "Copied" for a moment (announced to screen readers). Where the clipboard
 * cannot be used at all, says so and selects the text in `fallback` for the user to copy by hand.
 */
function CopyButton({
  text,
  label,
  fallback,
}: {
  text: string;
  label: string;
  fallback: { current: { select(): void; focus(): void } | null };
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (await copyText(text)) {
      setCopied(true);
      return;
    }
    toastError(MSG.clipboardFailed);
    fallback.current?.focus();
    fallback.current?.select();
  };

  return (
    <Button
      className="link-copy"
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      aria-label={copied ? `${label}: ${MSG.linkCopied}` : label}
      onClick={() => void copy()}
    >
      <span aria-live="polite">{copied ? MSG.linkCopied : label}</span>
    </Button>
  );
}

/**
 * A link's address (the /share or /embed page) with a copy button, and for an embed link the iframe
 * code too. A revoked link, or one whose token the server cannot present (made before links kept a
 * seed, see docs/links.md), says why there is nothing to copy.
 */
export function LinkAddress({ link }: { link: EmbedLinkView }) {
  const urlInput = useRef<InputRef>(null);
  const codeInput = useRef<HTMLTextAreaElement>(null);
  if (link.status === 'revoked') {
    return <Typography.Text type="secondary">{MSG.linkUrlRevoked}</Typography.Text>;
  }
  if (!link.token) {
    return (
      <Typography.Text type="secondary" className="link-no-address">
        {MSG.linkUrlUnavailable}
      </Typography.Text>
    );
  }
  // A link made without a page (an API client's) opens the share page.
  const url = linkFor(link.kind ?? 'share', link.token, window.location.origin);
  return (
    <div className="link-address">
      <div className="link-address-row">
        <Input
          ref={urlInput}
          readOnly
          value={url}
          aria-label={`${link.model.name} link address`}
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={url} label="Copy link" fallback={urlInput} />
      </div>
      {link.kind === 'embed' && (
        <div className="link-address-row">
          <textarea
            ref={codeInput}
            readOnly
            className="link-code"
            value={embedSnippet(url, `${link.model.name} viewer`)}
            aria-label={`${link.model.name} embed code`}
            rows={2}
            onFocus={(e) => e.target.select()}
          />
          <CopyButton
            text={embedSnippet(url, `${link.model.name} viewer`)}
            label="Copy code"
            fallback={codeInput}
          />
        </div>
      )}
    </div>
  );
}
