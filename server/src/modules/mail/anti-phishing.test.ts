import { describe, expect, it } from 'vitest';
import { newDeviceMail } from '../security/new-device-mail.ts';
import { type SecurityNotice, securityNoticeMail } from '../security/security-mails.ts';
import { withAntiPhishing } from './anti-phishing.ts';
import { type SupportMailKind, supportMail } from './support-templates.ts';
import { type CodePurpose, type MailContent, mailLanguages, verificationCodeMail } from './templates.ts';

/**
 * Every template of a mail we send a user, in every language. A new template must be added here
 * (the Record types make a new purpose, notice or support kind a type error until it is).
 */
const purposes: Record<CodePurpose, true> = {
  register: true,
  reset_password: true,
  change_password: true,
  fund_password: true,
  withdraw: true,
  transfer: true,
  unfreeze: true,
  change_email: true,
};
const notices: Record<SecurityNotice, true> = {
  recovery_code_used: true,
  totp_enabled: true,
  totp_disabled: true,
  account_frozen: true,
  passkey_added: true,
  passkey_removed: true,
  password_changed: true,
  unfreeze_requested: true,
  passkey_suspended: true,
  email_changed: true,
  payout_method_added: true,
  payout_method_activated: true,
  allowlist_entry_trusted: true,
  allowlist_off_requested: true,
};
const supportKinds: Record<SupportMailKind, true> = { chat_reply: true, ticket_reply: true, message_answer: true };

const templates: ReadonlyArray<readonly [string, (language: (typeof mailLanguages)[number]) => MailContent]> = [
  ...Object.keys(purposes).map(
    (p) =>
      [
        `code:${p}`,
        (l: (typeof mailLanguages)[number]) => verificationCodeMail(l, p as CodePurpose, '012345', 10),
      ] as const,
  ),
  ...Object.keys(notices).map(
    (n) =>
      [
        `notice:${n}`,
        (l: (typeof mailLanguages)[number]) => securityNoticeMail(l, n as SecurityNotice, new Date(0)),
      ] as const,
  ),
  ...Object.keys(supportKinds).map(
    (k) =>
      [
        `support:${k}`,
        (l: (typeof mailLanguages)[number]) => supportMail(l, k as SupportMailKind, { text: 'hi', quoted: 'q' }),
      ] as const,
  ),
  [
    'new_device',
    (l: (typeof mailLanguages)[number]) =>
      newDeviceMail(
        l,
        {
          device: { browser: 'Firefox 128', os: 'Windows 10', platform: 'desktop' },
          place: { country: 'US', region: null, city: null },
          ip: '8.8.8.8',
          at: new Date(0),
        },
        {
          code: '012345',
          validMinutes: 10,
          approveUrl: 'https://x/confirm-device#t=a',
          freezeUrl: 'https://x/freeze#t=b',
        },
      ),
  ] as const,
];

const cases = templates.flatMap(([name, render]) => mailLanguages.map((l) => [name, l, render] as const));

describe('anti-phishing phrase in every mail template', () => {
  it.each(cases)('%s (%s): the phrase heads the text and the HTML part', (_, language, render) => {
    const mail = withAntiPhishing(render(language), 'Blue Kettle 42', language);
    expect(mail.text.split('\n')[0]).toMatch(/Blue Kettle 42$/);
    expect(mail.html).toBeDefined();
    const html = mail.html ?? '';
    expect(html.indexOf('Blue Kettle 42')).toBeGreaterThan(-1);
    expect(html.indexOf('Blue Kettle 42')).toBeLessThan(html.indexOf('<div>'));
  });

  it('escapes in HTML (what the phrase rules missed, and the body)', () => {
    const mail = withAntiPhishing({ subject: 's', text: '<b>x</b>' }, 'a<b>&"', 'en');
    expect(mail.html).toContain('a&lt;b&gt;&amp;&quot;');
    expect(mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>');
  });

  it('no phrase: the mail is unchanged', () => {
    const mail = verificationCodeMail('en', 'withdraw', '012345', 10);
    expect(withAntiPhishing(mail, null, 'en')).toEqual(mail);
  });
});
