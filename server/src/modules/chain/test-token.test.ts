import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactPath, compileTestToken } from '../../../contracts/compile.ts';

describe('test ERC-20 artifact', () => {
  it('the committed test-token.json is what solc makes of TestToken.sol (run contracts/compile.ts after editing)', () => {
    const committed = JSON.parse(readFileSync(artifactPath, 'utf8'));
    expect(committed).toEqual(compileTestToken());
  }, 60_000);
});
