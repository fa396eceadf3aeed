import { Input, Typography } from 'antd';
import { MSG } from '@helix/shared';
import { EmbedAllowedHosts } from '@helix/shared/schemas/embed-hosts';
import './allowed-hosts-field.css';

/** The field's text as the list it stands for: one site per line (commas and spaces separate too). */
const hostsOfText = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/**
 * The field checked with the request's own schema (EmbedAllowedHosts): the sites as they will be
 * stored (punycode, lower case, no duplicates), or the first problem in words.
 */
export function checkAllowedHosts(
  text: string,
): { ok: true; hosts: string[] } | { ok: false; error: string } {
  const result = EmbedAllowedHosts.safeParse(hostsOfText(text));
  return result.success
    ? { ok: true, hosts: result.data }
    : { ok: false, error: result.error.issues[0]?.message ?? MSG.embedHostEmpty };
}

/**
 * "Only on these sites": the sites whose pages may show a link (`school.org`, `*.school.org`), one per
 * line; empty for any site. Used where links are made (the Share/Embed dialog) and changed (the Links
 * page); both check it with the shared schema before sending, and the server checks it again.
 */
export function AllowedHostsField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error: string | null;
  onChange(text: string): void;
}) {
  return (
    <div className="allowed-hosts-field">
      <label htmlFor={id}>{MSG.embedHostsLabel}</label>
      <Input.TextArea
        id={id}
        value={value}
        placeholder={'school.org\n*.school.org'}
        autoSize={{ minRows: 2, maxRows: 6 }}
        spellCheck={false}
        autoCapitalize="none"
        status={error ? 'error' : undefined}
        aria-describedby={`${id}-help`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <Typography.Text type="secondary" id={`${id}-help`} className="allowed-hosts-help">
        {MSG.embedHostsHelp}
      </Typography.Text>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}
