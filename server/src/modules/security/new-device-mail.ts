import type { MailContent, MailLanguage } from '../mail/templates.ts';
import { freezeLine } from './security-mails.ts';

/** What the mail says about the sign-in: parsed device, approximate place (offline IP data) and time. */
export interface SignInFacts {
  device: { browser: string | null; os: string | null; platform: string | null };
  place: { country: string | null; region: string | null; city: string | null };
  ip: string | null;
  at: Date;
}

const texts: Record<
  MailLanguage,
  {
    subject: string;
    intro: string;
    device: string;
    place: string;
    time: string;
    unknown: string;
    code: (minutes: number) => string;
    link: string;
  }
> = {
  'zh-CN': {
    subject: '确认新设备登录',
    intro: '有人在一台我们从未见过的设备或浏览器上登录了您的账户。确认之前，该登录不能使用。',
    device: '设备',
    place: '大致位置',
    time: '时间（UTC）',
    unknown: '未知',
    code: (m) => `如果是您本人，请在该设备上输入以下验证码（${m} 分钟内有效）：`,
    link: '或者打开此链接批准该设备：',
  },
  'zh-TW': {
    subject: '確認新裝置登入',
    intro: '有人在一台我們從未見過的裝置或瀏覽器上登入了您的帳戶。確認之前，該登入不能使用。',
    device: '裝置',
    place: '大致位置',
    time: '時間（UTC）',
    unknown: '未知',
    code: (m) => `如果是您本人，請在該裝置上輸入以下驗證碼（${m} 分鐘內有效）：`,
    link: '或者開啟此連結核准該裝置：',
  },
  en: {
    subject: 'Confirm a sign-in from a new device',
    intro:
      'Someone signed in to your account from a device or browser we have not seen before. It cannot be used until you confirm it.',
    device: 'Device',
    place: 'Approximate place',
    time: 'Time (UTC)',
    unknown: 'unknown',
    code: (m) => `If this was you, enter this code on that device (valid ${m} minutes):`,
    link: 'Or approve the device with this link:',
  },
  es: {
    subject: 'Confirma un inicio de sesión desde un dispositivo nuevo',
    intro:
      'Alguien inició sesión en tu cuenta desde un dispositivo o navegador que no conocíamos. No se puede usar hasta que lo confirmes.',
    device: 'Dispositivo',
    place: 'Lugar aproximado',
    time: 'Hora (UTC)',
    unknown: 'desconocido',
    code: (m) => `Si fuiste tú, introduce este código en ese dispositivo (válido ${m} minutos):`,
    link: 'O aprueba el dispositivo con este enlace:',
  },
};

/** The approve page; the token is in the fragment (never in a server log, never sent by a link scanner). */
export function deviceLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/confirm-device#t=${token}`;
}

export function describeDevice(device: SignInFacts['device'], unknown: string): string {
  const parts = [device.browser, device.os && `(${device.os})`, device.platform].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : unknown;
}

export function describePlace(facts: SignInFacts, unknown: string): string {
  const named = [facts.place.city, facts.place.region, facts.place.country].filter(Boolean).join(', ');
  const where = named === '' ? unknown : named;
  return facts.ip ? `${where} (IP ${facts.ip})` : where;
}

/**
 * The new-device mail: the facts, the code on a line of its own, the approve link and the one-click
 * freeze link ("this was not me"). The anti-phishing phrase is put on top by the outbox
 * (mail/anti-phishing.ts enqueueUserMail), as in every mail to a user.
 */
export function newDeviceMail(
  language: MailLanguage,
  facts: SignInFacts,
  mail: { code: string; validMinutes: number; approveUrl: string; freezeUrl: string },
): MailContent {
  const t = texts[language];
  const text = [
    t.intro,
    '',
    `${t.device}: ${describeDevice(facts.device, t.unknown)}`,
    `${t.place}: ${describePlace(facts, t.unknown)}`,
    `${t.time}: ${facts.at.toISOString().replace('T', ' ').slice(0, 19)}`,
    '',
    t.code(mail.validMinutes),
    '',
    mail.code,
    '',
    t.link,
    mail.approveUrl,
    '',
    freezeLine(language, mail.freezeUrl),
    '',
  ].join('\n');
  return { subject: t.subject, text };
}
