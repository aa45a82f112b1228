import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, createPasswordHasher, type PasswordHasher, setDefaultHashCost } from './password-hashing.ts';

describe.each(['workers', 'napi'] as const)('password hashing (%s engine)', (engine) => {
  let hasher: PasswordHasher;
  beforeAll(() => {
    // The server tests' setup hashes at the test cost (test/setup.ts); production never changes the
    // default, which this file checks: a hasher made with no cost given hashes at the OWASP parameters.
    setDefaultHashCost('production');
    try {
      hasher = createPasswordHasher({ concurrency: 2, engine });
    } finally {
      setDefaultHashCost('test');
    }
  });
  afterAll(() => hasher.close());

  it('uses argon2id with the OWASP parameters (19 MiB, t=2, p=1)', async () => {
    const hash = await hasher.hash('Tr1cky-Pass!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, 'Tr1cky-Pass!')).toBe(true);
    expect(await hasher.verify(hash, 'tr1cky-Pass!')).toBe(false);
    expect(await hasher.verify('not a hash', 'x')).toBe(false);
    expect(await hasher.verifyDummy('anything')).toBe(false);
  });

  it("at the tests' cost: the same argon2id encoding, and a hash of either cost verifies", async () => {
    const cheap = createPasswordHasher({ concurrency: 1, engine, cost: 'test' });
    try {
      const hash = await cheap.hash('Tr1cky-Pass!');
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
      expect(await hasher.verify(hash, 'Tr1cky-Pass!')).toBe(true);
      expect(await cheap.verify(await hasher.hash('Tr1cky-Pass!'), 'Tr1cky-Pass!')).toBe(true);
      expect(await cheap.verify(hash, 'tr1cky-Pass!')).toBe(false);
    } finally {
      await cheap.close();
    }
  });

  it('refuses the test cost outside a test run (no VITEST in the environment)', () => {
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => createPasswordHasher({ concurrency: 1, engine, cost: 'test' })).toThrow(/test runs only/);
    } finally {
      process.env.VITEST = vitest;
    }
  });

  it('runs off the event loop (timers keep firing while hashing)', async () => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    const started = performance.now();
    await Promise.all([hasher.hash('a-Password-1'), hasher.hash('a-Password-2'), hasher.hash('a-Password-3')]);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // A blocked loop would fire (almost) no timers during the hashes.
    expect(ticks).toBeGreaterThan(elapsed / 10);
  });

  it('limits concurrency', async () => {
    const limit = createLimiter(2);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        limit(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5));
          active -= 1;
        }),
      ),
    );
    expect(peak).toBe(2);
  });
});
