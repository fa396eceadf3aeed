import { escapeHtml } from '../escape-html.ts';
import { HELIX_MAIL_LOOK } from './mail-brand.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The logo an e-mail shows: its source (`cid:` of the message's inline PNG, mail-logo.ts) and CSS size. */
export interface MailLogo {
  src: string;
  width: number;
  height: number;
}

/**
 * What a school's e-mail is drawn with: its name, the button's colours (#rrggbb, checked by MailBrand)
 * and, when the message carries it, its logo. A MailBrand as queued (its `logoUrl` is where the logo is
 * stored, never shown) draws the school's name in text.
 */
export interface MailLook {
  name: string;
  primaryColor: string;
  textColor: string;
  logo?: MailLogo;
}

export interface MailAction {
  label: string;
  link: string;
}

/** A paragraph, or text quoted as it was written (a support request's message, its line breaks kept). */
export type MailBlock = string | { quote: string };

/**
 * The one layout of every e-mail, HTML and plain text: a header with the school's logo (alt text: its
 * name; width and height given, as Outlook sizes images by them) or its name, the paragraphs (and
 * quotes), an optional button in the school's primary colour with its link
 * spelled out, and a footer. Without a brand, Helix's look. Every value is escaped in the HTML; the
 * colours were checked as #rrggbb (MailBrand) and are escaped as well.
 */
export function renderLayout(
  subject: string,
  paragraphs: readonly MailBlock[],
  action?: MailAction,
  brand?: MailLook,
): RenderedMail {
  return {
    subject,
    html: htmlLayout(subject, paragraphs, action, brand),
    text: textLayout(paragraphs, action, brand),
  };
}

const footerOf = (brand?: MailLook) => (brand ? `Sent by Helix for ${brand.name}.` : 'Sent by Helix.');

export function htmlLayout(
  title: string,
  paragraphs: readonly MailBlock[],
  action?: MailAction,
  brand?: MailLook,
): string {
  const look = brand ?? HELIX_MAIL_LOOK;
  const primary = escapeHtml(look.primaryColor);
  const header =
    brand?.logo !== undefined
      ? `<img src="${escapeHtml(brand.logo.src)}" alt="${escapeHtml(brand.name)}" width="${Math.round(brand.logo.width)}" height="${Math.round(brand.logo.height)}" style="width:${Math.round(brand.logo.width)}px;height:${Math.round(brand.logo.height)}px;border:0;display:block">`
      : `<span style="font-size:20px;font-weight:bold;color:#222222">${escapeHtml(look.name)}</span>`;
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p style="margin:0 0 14px">${escapeHtml(p)}</p>`
        : `<blockquote style="margin:0 0 14px;padding:0 12px;border-left:3px solid ${primary};white-space:pre-wrap">${escapeHtml(p.quote)}</blockquote>`,
    )
    .join('\n');
  const button = action
    ? `<p style="margin:20px 0 8px"><a href="${escapeHtml(action.link)}" style="display:inline-block;padding:10px 18px;background:${primary};color:${escapeHtml(look.textColor)};text-decoration:none;border-radius:4px;font-weight:bold">${escapeHtml(action.label)}</a></p>\n<p style="margin:0;font-size:12px;color:#666666;word-break:break-all">${escapeHtml(action.link)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f6;font-family:Arial,Helvetica,sans-serif;color:#222222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:18px 24px;border-bottom:3px solid ${primary}">${header}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">
${body}
${button}
</td></tr>
<tr><td style="padding:12px 24px 18px;font-size:12px;color:#666666">${escapeHtml(footerOf(brand))}</td></tr>
</table>
</td></tr></table>
</body></html>`;
}

/** The plain-text part: the same words, the link on its own line, the brand's name at the top. */
export function textLayout(paragraphs: readonly MailBlock[], action?: MailAction, brand?: MailLook): string {
  const parts = [
    (brand ?? HELIX_MAIL_LOOK).name,
    ...paragraphs.map((p) => (typeof p === 'string' ? p : p.quote)),
  ];
  if (action) parts.push(`${action.label}:\n${action.link}`);
  parts.push(`-- \n${footerOf(brand)}`);
  return `${parts.join('\n\n')}\n`;
}
