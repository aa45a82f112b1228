/** Languages mail is written in; the first is the default. */
export const mailLanguages = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
export type MailLanguage = (typeof mailLanguages)[number];

export type CodePurpose =
  | 'register'
  | 'reset_password'
  | 'change_password'
  | 'fund_password'
  | 'withdraw'
  | 'transfer'
  | 'unfreeze'
  /** Sent to the NEW address of an e-mail change (security/email-change.ts), never through send-code. */
  | 'change_email';

export interface MailContent {
  subject: string;
  text: string;
}

interface CodeTexts {
  subject: string;
  purpose: Record<CodePurpose, string>;
  intro: string;
  validity: (minutes: number) => string;
  ignore: string;
}

const texts: Record<MailLanguage, CodeTexts> = {
  'zh-CN': {
    subject: '您的验证码',
    purpose: {
      register: '注册账户',
      reset_password: '重置登录密码',
      change_password: '修改登录密码',
      fund_password: '设置资金密码',
      withdraw: '提现',
      transfer: '转账给其他用户',
      unfreeze: '解冻账户',
      change_email: '将此邮箱设为账户的新邮箱',
    },
    intro: '您正在进行以下操作：',
    validity: (m) => `验证码 ${m} 分钟内有效，仅可使用一次。`,
    ignore: '如果这不是您本人的操作，请忽略此邮件，不要将验证码告诉任何人。',
  },
  'zh-TW': {
    subject: '您的驗證碼',
    purpose: {
      register: '註冊帳戶',
      reset_password: '重設登入密碼',
      change_password: '修改登入密碼',
      fund_password: '設定資金密碼',
      withdraw: '提領',
      transfer: '轉帳給其他用戶',
      unfreeze: '解凍帳戶',
      change_email: '將此信箱設為帳戶的新信箱',
    },
    intro: '您正在進行以下操作：',
    validity: (m) => `驗證碼 ${m} 分鐘內有效，僅可使用一次。`,
    ignore: '如果這不是您本人的操作，請忽略此郵件，不要將驗證碼告訴任何人。',
  },
  en: {
    subject: 'Your verification code',
    purpose: {
      register: 'create your account',
      reset_password: 'reset your login password',
      change_password: 'change your login password',
      fund_password: 'set your fund password',
      withdraw: 'withdraw funds',
      transfer: 'transfer funds to another user',
      unfreeze: 'unfreeze your account',
      change_email: 'make this the new e-mail address of your account',
    },
    intro: 'Use this code to',
    validity: (m) => `The code is valid for ${m} minutes and can be used once.`,
    ignore: 'If you did not ask for it, ignore this email and never share the code.',
  },
  es: {
    subject: 'Tu código de verificación',
    purpose: {
      register: 'crear tu cuenta',
      reset_password: 'restablecer tu contraseña de acceso',
      change_password: 'cambiar tu contraseña de acceso',
      fund_password: 'establecer tu contraseña de fondos',
      withdraw: 'retirar fondos',
      transfer: 'transferir fondos a otro usuario',
      unfreeze: 'descongelar tu cuenta',
      change_email: 'usar esta dirección como el nuevo correo de tu cuenta',
    },
    intro: 'Usa este código para',
    validity: (m) => `El código es válido durante ${m} minutos y solo se puede usar una vez.`,
    ignore: 'Si no lo has solicitado, ignora este correo y no compartas el código con nadie.',
  },
};

/**
 * The verification-code mail. The code stands alone on its own line, in plain ASCII,
 * so it survives quoted-printable encoding and is easy to extract.
 */
export function verificationCodeMail(
  language: MailLanguage,
  purpose: CodePurpose,
  code: string,
  validMinutes: number,
): MailContent {
  const t = texts[language];
  return {
    subject: t.subject,
    text: [`${t.intro} ${t.purpose[purpose]}`, '', code, '', t.validity(validMinutes), t.ignore, ''].join('\n'),
  };
}

export function isMailLanguage(value: unknown): value is MailLanguage {
  return typeof value === 'string' && (mailLanguages as readonly string[]).includes(value);
}

/** Picks the mail language: an explicit choice, else the best Accept-Language match, else zh-CN. */
export function pickMailLanguage(explicit: string | undefined, acceptLanguage: string | undefined): MailLanguage {
  if (isMailLanguage(explicit)) return explicit;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((e) => e.tag !== '' && e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-mo' || tag.startsWith('zh-hant')) return 'zh-TW';
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en';
    if (tag.startsWith('es')) return 'es';
  }
  return 'zh-CN';
}
