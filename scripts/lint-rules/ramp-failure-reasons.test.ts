import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_REASONS } from '../../remotes/convert/src/features/ramp/utils/failure-reason.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RAMP = path.join(ROOT, 'server/src/modules/ramp');
const LOCALES = ['zh-CN', 'zh-TW', 'en', 'es'];

/** Every `reason: '<code>'` / `failureReason: '<code>'` (and `reason ?? '<code>'`) the ramp module writes. */
function writtenReasons(): Set<string> {
  const files = [
    'sandbox/sandbox-provider.ts',
    'provider-events.ts',
    'sell-events.ts',
    'sell-repair.ts',
    'ops-commands.ts',
    'cancel.ts',
  ];
  const text = files.map((file) => readFileSync(path.join(RAMP, file), 'utf8')).join('\n');
  const codes = new Set<string>();
  for (const m of text.matchAll(/(?:failureReason|reason):\s*(?:reason \?\? )?'([a-z_]+)'/g)) if (m[1]) codes.add(m[1]);
  // The refusals of a sell payout, chosen in one conditional expression (sell-events.ts `const refusal = ...;`),
  // among them the prefix of `provider_terms_mismatch:<field>`.
  const refusal = /const refusal =([^;]*);/.exec(text)?.[1] ?? '';
  expect(refusal).not.toBe('');
  for (const m of refusal.matchAll(/['`]([a-z_]+)[':]/g)) if (m[1]) codes.add(m[1]);
  return codes;
}

describe('ramp failure reasons (issue 30 item 2)', () => {
  it('every reason the sandbox provider and the server write has a translation in the convert remote', () => {
    const written = writtenReasons();
    expect([...written]).toEqual(
      expect.arrayContaining(['card_declined', 'deposit_expired', 'provider_terms_mismatch']),
    );
    const missing = [...written].filter((code) => !(KNOWN_REASONS as readonly string[]).includes(code));
    expect(missing).toEqual([]);
    for (const locale of LOCALES) {
      const bundle = JSON.parse(
        readFileSync(path.join(ROOT, `remotes/convert/src/locales/${locale}.json`), 'utf8'),
      ) as { ramp: { reason: Record<string, string> } };
      for (const code of KNOWN_REASONS) expect(bundle.ramp.reason[code], `${locale} ${code}`).toBeTruthy();
    }
  });
});
