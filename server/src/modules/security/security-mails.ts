import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import { isMailLanguage, type MailContent, type MailLanguage } from '../mail/templates.ts';
import { newFreezeLink } from './freeze.ts';

/** Security notices: something changed that the owner must hear about even when it was not them. */
export type SecurityNotice =
  | 'recovery_code_used'
  | 'totp_enabled'
  | 'totp_disabled'
  | 'passkey_added'
  | 'passkey_removed'
  | 'passkey_suspended'
  | 'account_frozen'
  | 'password_changed'
  | 'unfreeze_requested'
  | 'email_changed'
  | 'payout_method_added'
  | 'payout_method_activated'
  | 'allowlist_entry_trusted'
  | 'allowlist_off_requested';

const texts: Record<
  MailLanguage,
  { subject: string; body: Record<SecurityNotice, string>; notYou: string; freeze: string }
> = {
  'zh-CN': {
    subject: '账户安全提醒',
    body: {
      recovery_code_used: '您的账户刚刚使用了一个恢复码登录或验证。该恢复码已失效。',
      totp_enabled: '您的账户已开启身份验证器（双重验证）。',
      totp_disabled: '您的账户已关闭身份验证器（双重验证）。',
      passkey_added: '您的账户已添加一个通行密钥。',
      passkey_removed: '您的账户已删除一个通行密钥。',
      passkey_suspended: '您的一个通行密钥的签名计数器倒退（可能已被复制），已被暂停使用。请在安全设置中删除它。',
      account_frozen: '您的账户已冻结：所有会话已结束，提现、转账、兑换付款和出售均已停止。',
      password_changed: '您的账户登录密码已更改（或已重置）。24 小时内不能提现或转账。',
      unfreeze_requested: '已申请解冻您的账户。等待期结束后，资产才能再次转出。',
      email_changed: '您账户的邮箱地址已更改为 {to}。此后验证码和通知将发往新地址。24 小时内不能提现或转账。',
      payout_method_added:
        '您的账户已添加一个收款方式（出售所得将付到这里）。开启提币白名单时，它在等待期结束后才能使用。',
      payout_method_activated: '您的账户重新启用了一个收款方式。开启提币白名单时，它在等待期结束后才能使用。',
      allowlist_entry_trusted: '地址簿中的一个地址被标记为可信（提币白名单）。等待期结束后即可向它提币：',
      allowlist_off_requested: '已申请关闭提币白名单。等待期结束后将生效，届时可向任意地址提币：',
    },
    notYou: '如果这不是您本人的操作，请立即在安全设置中冻结账户并联系客服。',
    freeze: '不是您本人？点击此链接立即冻结账户（无需登录）：',
  },
  'zh-TW': {
    subject: '帳戶安全提醒',
    body: {
      recovery_code_used: '您的帳戶剛剛使用了一個復原碼登入或驗證。該復原碼已失效。',
      totp_enabled: '您的帳戶已開啟身分驗證器（雙重驗證）。',
      totp_disabled: '您的帳戶已關閉身分驗證器（雙重驗證）。',
      passkey_added: '您的帳戶已新增一個通行密鑰。',
      passkey_removed: '您的帳戶已刪除一個通行密鑰。',
      passkey_suspended: '您的一個通行密鑰的簽章計數器倒退（可能已被複製），已暫停使用。請在安全設定中刪除它。',
      account_frozen: '您的帳戶已凍結：所有工作階段已結束，提領、轉帳、兌換付款和出售均已停止。',
      password_changed: '您的帳戶登入密碼已變更（或已重設）。24 小時內不能提領或轉帳。',
      unfreeze_requested: '已申請解凍您的帳戶。等待期結束後，資產才能再次轉出。',
      email_changed: '您帳戶的信箱地址已變更為 {to}。此後驗證碼和通知將寄往新地址。24 小時內不能提領或轉帳。',
      payout_method_added:
        '您的帳戶已新增一個收款方式（出售所得將付到這裡）。開啟提幣白名單時，它在等待期結束後才能使用。',
      payout_method_activated: '您的帳戶重新啟用了一個收款方式。開啟提幣白名單時，它在等待期結束後才能使用。',
      allowlist_entry_trusted: '地址簿中的一個地址被標記為可信（提幣白名單）。等待期結束後即可向它提領：',
      allowlist_off_requested: '已申請關閉提幣白名單。等待期結束後將生效，屆時可向任意地址提領：',
    },
    notYou: '如果這不是您本人的操作，請立即在安全設定中凍結帳戶並聯絡客服。',
    freeze: '不是您本人？點擊此連結立即凍結帳戶（無需登入）：',
  },
  en: {
    subject: 'Account security notice',
    body: {
      recovery_code_used: 'A recovery code was just used on your account. That code no longer works.',
      totp_enabled: 'An authenticator app (two-step verification) was turned on for your account.',
      totp_disabled: 'The authenticator app (two-step verification) was removed from your account.',
      passkey_added: 'A passkey was added to your account.',
      passkey_removed: 'A passkey was removed from your account.',
      passkey_suspended:
        'One of your passkeys was suspended: its signature counter went backwards (it may have been copied). Remove it in the security settings.',
      account_frozen:
        'Your account is frozen: every session was ended; withdrawals, sends, exchange payouts and sells are stopped.',
      password_changed:
        'The sign-in password of your account was changed (or reset). Withdrawals and sends are held for 24 hours.',
      unfreeze_requested: 'An unfreeze of your account was asked for. Nothing can leave it until the wait is over.',
      email_changed:
        'The e-mail address of your account was changed to {to}. Codes and notices now go there. Withdrawals and sends are held for 24 hours.',
      payout_method_added:
        'A payout method (where the money of a sell is paid) was added to your account. With the withdrawal allowlist on, it is usable after its hold.',
      payout_method_activated:
        'A payout method was switched back on in your account. With the withdrawal allowlist on, it is usable after its hold.',
      allowlist_entry_trusted:
        'An address-book entry was marked trusted (withdrawal allowlist). Coins can be sent to it once its hold ends:',
      allowlist_off_requested:
        'Turning your withdrawal allowlist off was asked for. It takes effect when the hold ends; then coins can go to any address:',
    },
    notYou: 'If this was not you, freeze your account in the security settings now and contact support.',
    freeze: 'Not you? Freeze your account now with this link (no sign-in needed):',
  },
  es: {
    subject: 'Aviso de seguridad de la cuenta',
    body: {
      recovery_code_used: 'Se acaba de usar un código de recuperación en tu cuenta. Ese código ya no sirve.',
      totp_enabled: 'Se activó una app de autenticación (verificación en dos pasos) en tu cuenta.',
      totp_disabled: 'Se quitó la app de autenticación (verificación en dos pasos) de tu cuenta.',
      passkey_added: 'Se añadió una llave de acceso a tu cuenta.',
      passkey_removed: 'Se eliminó una llave de acceso de tu cuenta.',
      passkey_suspended:
        'Se suspendió una de tus llaves de acceso: su contador de firmas retrocedió (puede haber sido copiada). Elimínala en los ajustes de seguridad.',
      account_frozen:
        'Tu cuenta está congelada: se cerraron todas las sesiones; retiros, envíos, pagos de intercambio y ventas están detenidos.',
      password_changed:
        'Se cambió (o restableció) la contraseña de acceso de tu cuenta. Retiros y envíos quedan retenidos 24 horas.',
      unfreeze_requested: 'Se pidió descongelar tu cuenta. No puede salir nada hasta que termine la espera.',
      email_changed:
        'El correo de tu cuenta se cambió a {to}. Los códigos y avisos irán allí. Retiros y envíos quedan retenidos 24 horas.',
      payout_method_added:
        'Se añadió un método de cobro (donde se paga el dinero de una venta) a tu cuenta. Con la lista permitida activa, se puede usar tras su espera.',
      payout_method_activated:
        'Se volvió a activar un método de cobro en tu cuenta. Con la lista permitida activa, se puede usar tras su espera.',
      allowlist_entry_trusted:
        'Una dirección de la libreta se marcó como de confianza (lista permitida). Se podrá enviar a ella cuando termine su espera:',
      allowlist_off_requested:
        'Se pidió desactivar tu lista de direcciones permitidas. Surte efecto al terminar la espera; entonces se podrá enviar a cualquier dirección:',
    },
    notYou: 'Si no fuiste tú, congela tu cuenta ahora en los ajustes de seguridad y contacta con soporte.',
    freeze: '¿No fuiste tú? Congela tu cuenta ahora con este enlace (sin iniciar sesión):',
  },
};

/** The one-click freeze page; the token is in the fragment, so it never reaches a server log. */
export function freezeLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/freeze#t=${token}`;
}

/** The freeze line of every security mail, in the mail's language. */
export function freezeLine(language: MailLanguage, url: string): string {
  return `${texts[language].freeze}\n${url}`;
}

export function securityNoticeMail(
  language: MailLanguage,
  notice: SecurityNotice,
  at: Date,
  freezeUrl?: string,
  /** Fills {to} in the notice (the masked new address of an e-mail change). */
  to = '',
  /** What changed, language-neutral (an address and when its hold ends), under the sentence. */
  detail?: string,
): MailContent {
  const t = texts[language];
  const lines = [
    t.body[notice].replace('{to}', to),
    ...(detail ? [detail] : []),
    '',
    at.toISOString(),
    '',
    t.notYou,
    '',
  ];
  if (freezeUrl) lines.push(freezeLine(language, freezeUrl), '');
  return { subject: t.subject, text: lines.join('\n') };
}

/** The user's mail address and language (zh-CN when none is saved). */
export async function mailTarget(
  trx: Kysely<Database>,
  userId: string,
): Promise<{ email: string; language: MailLanguage } | undefined> {
  const row = await trx
    .selectFrom('accounts')
    .leftJoin('user_settings', 'user_settings.user_id', 'accounts.user_id')
    .select(['accounts.email', 'user_settings.language'])
    .where('accounts.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { email: row.email, language: isMailLanguage(row.language) ? row.language : 'zh-CN' };
}

/**
 * Queues the notice to the account's address, in the user's language, with a one-click freeze link
 * (a fresh token, freeze.ts) when `origin` (the app's public origin) is given.
 */
export async function queueSecurityNotice(
  trx: Kysely<Database>,
  userId: string,
  notice: SecurityNotice,
  at: Date,
  origin?: string,
  detail?: string,
): Promise<void> {
  const target = await mailTarget(trx, userId);
  if (!target) return;
  const url = origin === undefined ? undefined : freezeLinkUrl(origin, await newFreezeLink(trx, userId, at));
  await enqueueUserMail(
    trx,
    userId,
    target.language,
    { to: target.email, ...securityNoticeMail(target.language, notice, at, url, '', detail) },
    at,
  );
}
