import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { tsChildArgs, tsChildLoader } from './ts-child.ts';

describe('TS_CHILD_LOADER', () => {
  it('defaults to tsx (production), strip runs the file alone, anything else is refused', () => {
    expect(tsChildLoader({})).toBe('tsx');
    expect(tsChildArgs('/a/main.ts', ['x'], {})).toEqual(['--import', 'tsx', '/a/main.ts', 'x']);
    expect(tsChildArgs('/a/main.ts', ['x'], { TS_CHILD_LOADER: 'strip' })).toEqual(['/a/main.ts', 'x']);
    expect(() => tsChildLoader({ TS_CHILD_LOADER: 'esbuild' })).toThrow(ConfigError);
    expect(() => tsChildLoader({ TS_CHILD_LOADER: 'esbuild' })).toThrow(
      'TS_CHILD_LOADER must be tsx or strip (got "esbuild")',
    );
  });
});
