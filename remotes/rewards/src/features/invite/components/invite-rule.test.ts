import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import es from '../../../locales/es.json' with { type: 'json' };
import zhCN from '../../../locales/zh-CN.json' with { type: 'json' };
import zhTW from '../../../locales/zh-TW.json' with { type: 'json' };

/**
 * The invite rule (issue 36, item 9 review) is said in every language with the configured numbers:
 * the reward, the qualifying deposit and the hours it is held come from GET /api/rewards/invite, never
 * from the text, and each status of an invitation (held, paid, forfeited) has its words.
 */
describe('invite rule text', () => {
  for (const [language, messages] of Object.entries({ en, es, 'zh-CN': zhCN, 'zh-TW': zhTW })) {
    it(`${language}: names the reward, the minimum and the hold from configuration, no number of its own`, () => {
      const rule = messages.invite.howItWorks;
      for (const placeholder of ['{{reward}}', '{{minimum}}', '{{hours}}']) expect(rule).toContain(placeholder);
      expect(rule.replace(/\{\{\w+\}\}/g, '')).not.toMatch(/[0-9０-９]/);
      expect(Object.keys(messages.invite.status).sort()).toEqual(['deposited', 'forfeited', 'paid', 'registered']);
    });
  }
});
