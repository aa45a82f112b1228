import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { isMailLanguage, type MailContent, type MailLanguage } from '../mail/templates.ts';

/** Security notices: something changed that the owner must hear about even when it was not them. */
export type SecurityNotice =
  | 'recovery_code_used'
  | 'totp_enabled'
  | 'totp_disabled'
  | 'passkey_added'
  | 'passkey_removed'
  | 'passkey_suspended'
  | 'account_frozen';

const texts: Record<MailLanguage, { subject: string; body: Record<SecurityNotice, string>; notYou: string }> = {
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
    },
    notYou: '如果这不是您本人的操作，请立即在安全设置中冻结账户并联系客服。',
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
    },
    notYou: '如果這不是您本人的操作，請立即在安全設定中凍結帳戶並聯絡客服。',
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
    },
    notYou: 'If this was not you, freeze your account in the security settings now and contact support.',
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
    },
    notYou: 'Si no fuiste tú, congela tu cuenta ahora en los ajustes de seguridad y contacta con soporte.',
  },
};

export function securityNoticeMail(language: MailLanguage, notice: SecurityNotice, at: Date): MailContent {
  const t = texts[language];
  return { subject: t.subject, text: [t.body[notice], '', at.toISOString(), '', t.notYou, ''].join('\n') };
}

/** Queues the notice to the account's address, in the user's language (zh-CN when none is saved). */
export async function queueSecurityNotice(
  trx: Kysely<Database>,
  userId: string,
  notice: SecurityNotice,
  at: Date,
): Promise<void> {
  const row = await trx
    .selectFrom('accounts')
    .leftJoin('user_settings', 'user_settings.user_id', 'accounts.user_id')
    .select(['accounts.email', 'user_settings.language'])
    .where('accounts.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return;
  const language: MailLanguage = isMailLanguage(row.language) ? row.language : 'zh-CN';
  await enqueueMail(trx, { to: row.email, ...securityNoticeMail(language, notice, at) }, at);
}
