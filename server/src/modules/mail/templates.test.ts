import { describe, expect, it } from 'vitest';
import { extractCode } from './smtp-sink.ts';
import { mailLanguages, pickMailLanguage, verificationCodeMail } from './templates.ts';

describe('mail templates', () => {
  it.each(mailLanguages)('%s: the code stands alone on its own line', (language) => {
    const mail = verificationCodeMail(language, 'register', '012345', 10);
    expect(mail.subject).not.toBe('');
    expect(mail.text.split('\n')).toContain('012345');
    expect(extractCode(mail.text)).toBe('012345');
  });

  it('are different per language and purpose', () => {
    const subjects = new Set(mailLanguages.map((l) => verificationCodeMail(l, 'register', '000000', 10).subject));
    expect(subjects.size).toBe(4);
    expect(verificationCodeMail('en', 'withdraw', '1', 10).text).toContain('withdraw funds');
    expect(verificationCodeMail('en', 'transfer', '1', 10).text).toContain('transfer funds to another user');
    expect(verificationCodeMail('zh-CN', 'transfer', '1', 10).text).not.toContain('提现');
  });

  it.each([
    [undefined, undefined, 'zh-CN'],
    ['es', 'en', 'es'],
    [undefined, 'en-US,en;q=0.9', 'en'],
    [undefined, 'zh-TW', 'zh-TW'],
    [undefined, 'zh-Hant-HK', 'zh-TW'],
    [undefined, 'zh', 'zh-CN'],
    [undefined, 'fr, es;q=0.5, en;q=0.4', 'es'],
    [undefined, 'de', 'zh-CN'],
    ['xx', 'en', 'en'],
  ])('explicit %s, Accept-Language %s -> %s', (explicit, accept, expected) => {
    expect(pickMailLanguage(explicit, accept)).toBe(expected);
  });
});
