import { describe, expect, it } from 'vitest';
import { DECODE_MAX_SIDE_PX, fitSize } from './scan-engine.ts';

describe('fitSize', () => {
  it('scales the long side down to the decode limit, keeping the shape', () => {
    expect(fitSize(1920, 1440)).toEqual({ width: DECODE_MAX_SIDE_PX, height: 600 });
    expect(fitSize(1080, 1920)).toEqual({ width: 450, height: DECODE_MAX_SIDE_PX });
  });

  it('never enlarges a small frame', () => {
    expect(fitSize(320, 240)).toEqual({ width: 320, height: 240 });
    expect(fitSize(0, 0)).toEqual({ width: 1, height: 1 });
  });
});
