import { describe, expect, it } from 'vitest';
import { clientName, deviceName } from './device-name.ts';

describe('deviceName', () => {
  it('names browser and system', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari · iOS');
    expect(
      deviceName(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0 Safari/537.36',
      ),
    ).toBe('Chrome · Linux');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox · Windows',
    );
  });

  it('gives null for nothing recognisable', () => {
    expect(deviceName(null)).toBeNull();
    expect(deviceName('curl/8.0')).toBeNull();
  });
});

describe('clientName (issue 30 item 9: a session without a browser is not an "unknown device")', () => {
  it('names a program by its first product token', () => {
    expect(clientName('curl/8.4.0')).toBe('curl 8.4.0');
    expect(clientName('okhttp/4.12.0 extra words')).toBe('okhttp 4.12.0');
    expect(clientName('node')).toBe('node');
  });

  it('gives null for no User-Agent or nothing readable, and bounds what it returns', () => {
    expect(clientName(null)).toBeNull();
    expect(clientName('   ')).toBeNull();
    expect(clientName('(compatible)')).toBeNull();
    expect(clientName(`x${'a'.repeat(200)}/1`)?.length).toBe(40);
  });
});
