import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkIfscData, type IfscSource, ifscDataFile, ifscSourceFile } from './ifsc-data.ts';
import { knownIfsc } from './validate.ts';

describe('offline IFSC data (server/data/ifsc, refreshed by server/scripts/update-ifsc.ts)', () => {
  const source = JSON.parse(readFileSync(ifscSourceFile, 'utf8')) as IfscSource;
  const text = readFileSync(ifscDataFile, 'utf8');

  it('is the file source.json records (no hand edit, no partial copy)', () => {
    expect(createHash('sha256').update(text).digest('hex')).toBe(source.sha256);
    expect(source.package).toBe('ifsc');
    expect(source.integrity).toMatch(/^sha512-/);
  });

  it('has the shape the lookup relies on', () => {
    expect(checkIfscData(JSON.parse(text))).toBeGreaterThan(200);
    expect(() => checkIfscData({ HDFC: [1] })).toThrow(/banks/);
    expect(() => checkIfscData([])).toThrow(/not an object/);
  });

  it('knows real branches (numeric and alphanumeric codes) and refuses made-up ones', () => {
    expect(knownIfsc('HDFC0000001')).toBe(true);
    expect(knownIfsc('SBIN0000001')).toBe(true);
    expect(knownIfsc('ABNA0NEFT02')).toBe(true);
    expect(knownIfsc('HDFC0987654')).toBe(false);
    expect(knownIfsc('HDFC0ZZZZZZ')).toBe(false);
    expect(knownIfsc('ZZZZ0000001')).toBe(false);
  });

  it('is not installed as the ifsc package (its runtime pulls the deprecated request tree)', () => {
    const server = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(server.dependencies.ifsc).toBeUndefined();
  });
});
