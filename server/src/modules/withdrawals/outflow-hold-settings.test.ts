import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { holdingEvents, OUTFLOW_HOLD_MS, securityChangeHoldMs } from './outflow-holds.ts';

const HOUR_MS = 3_600_000;
const LOCALES = ['zh-CN', 'zh-TW', 'en', 'es'];
const localeFile = (language: string) =>
  path.resolve(import.meta.dirname, `../../../../shared-ui/src/i18n/locales/${language}.json`);

describe('the security-change hold (issue 31)', () => {
  it('lasts SECURITY_CHANGE_HOLD_HOURS, 24 by default; the start refuses a value out of 1..720', () => {
    expect(securityChangeHoldMs({})).toBe(24 * HOUR_MS);
    expect(OUTFLOW_HOLD_MS).toBe(24 * HOUR_MS);
    expect(securityChangeHoldMs({ SECURITY_CHANGE_HOLD_HOURS: '48' })).toBe(48 * HOUR_MS);
    // Never shorter than an hour nor a silent zero: an invalid value keeps the default.
    for (const bad of ['0', '-3', '1.5', 'abc', '721']) {
      expect(securityChangeHoldMs({ SECURITY_CHANGE_HOLD_HOURS: bad })).toBe(24 * HOUR_MS);
      expect(() => loadConfig({ SECURITY_CHANGE_HOLD_HOURS: bad })).toThrow(/SECURITY_CHANGE_HOLD_HOURS/);
    }
    expect(() => loadConfig({ SECURITY_CHANGE_HOLD_HOURS: '72' })).not.toThrow();
  });

  it('every event that starts it has its own sentence in the lock banner, in four languages', () => {
    for (const language of LOCALES) {
      const reasons = (JSON.parse(readFileSync(localeFile(language), 'utf8')) as { lock: { reason: object } }).lock
        .reason;
      expect(
        holdingEvents.filter((event) => !(event in reasons)),
        language,
      ).toEqual([]);
    }
  });
});
