import { escapeHtml } from '../escape-html.ts';

/**
 * The default Terms of Service and Privacy Policy, served at /terms and /privacy when TERMS_URL and
 * PRIVACY_URL are not set. Plain, short and readable on a phone; an operator with its own pages sets
 * the two variables (README, Configuration). The texts are fixed: nothing a tenant or visitor typed
 * is put into them.
 */
interface LegalText {
  title: string;
  sections: Array<{ heading: string; paragraphs: string[] }>;
}

const TERMS: LegalText = {
  title: 'Terms of Service',
  sections: [
    {
      heading: 'Who we are',
      paragraphs: [
        'Helix is a portal for viewing, sharing and embedding 3D biology and anatomy models. These terms apply to everyone who uses this portal: schools and other organisations that subscribe, the people they invite, and individual subscribers.',
      ],
    },
    {
      heading: 'Your account',
      paragraphs: [
        'Keep your password to yourself. One account is for one person. If you were invited by a school, the school decides what you can see and do, and can remove your account.',
        'You are responsible for what you upload and share. Do not upload material you have no right to share, and do not use Helix to break the law or to harm others.',
      ],
    },
    {
      heading: 'Subscriptions',
      paragraphs: [
        'Paid plans are billed in advance for each period through our payment provider. You can end a subscription at any time; it stays active until the end of the period already paid for.',
      ],
    },
    {
      heading: 'The models and the service',
      paragraphs: [
        'The models are for teaching and learning. We work to keep Helix available and correct, but we cannot promise that it will never be interrupted or that every model is free of mistakes.',
        'We may change these terms. When a change matters, we tell subscribers by e-mail before it applies.',
      ],
    },
    {
      heading: 'Contact',
      paragraphs: ['Questions about these terms: use Help in the portal, or ask your school.'],
    },
  ],
};

const PRIVACY: LegalText = {
  title: 'Privacy Policy',
  sections: [
    {
      heading: 'What we keep',
      paragraphs: [
        'Your name, e-mail address, username and a one-way hash of your password (never the password itself); the school or organisation you belong to and your roles there; when you signed in; and how often models were viewed.',
        'For subscribers, the payment provider keeps the card details; we keep only what the subscription needs (plan, status, invoices).',
      ],
    },
    {
      heading: 'Why',
      paragraphs: [
        'To let you sign in, to show you the models your school gives you, to count views against your plan, to send the e-mails you need (invitations, password resets, receipts) and to answer support requests. We do not sell personal data and do not show advertising.',
      ],
    },
    {
      heading: 'Who sees it',
      paragraphs: [
        'Your school’s owner and administrators see the users of their school. Our staff see what they need to run the service and answer support. Other schools never see who your school’s users are.',
      ],
    },
    {
      heading: 'How long',
      paragraphs: [
        'As long as your account exists. When a school removes your account, or a subscriber closes theirs, the personal data is deleted, except what the law requires us to keep (such as invoices).',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'You may ask to see, correct or delete your data. Change your name and password in your profile; for anything else, use Help in the portal or ask your school.',
      ],
    },
  ],
};

/** The whole HTML document of /terms or /privacy: no script, inline styles only. */
export function legalPage(kind: 'terms' | 'privacy'): string {
  const text = kind === 'terms' ? TERMS : PRIVACY;
  const sections = text.sections
    .map(
      (s) =>
        `<h2>${escapeHtml(s.heading)}</h2>\n${s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(text.title)} · Helix</title>
<style>body{font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;line-height:1.6;color:#222;max-width:40rem;margin:0 auto;padding:2rem 1.25rem}h1{font-size:1.75rem}h2{font-size:1.15rem;margin-top:1.75rem}a{color:#4b3fd6}</style>
</head><body><main>
<h1>${escapeHtml(text.title)}</h1>
${sections}
<p><a href="/">Back to Helix</a></p>
</main></body></html>`;
}
