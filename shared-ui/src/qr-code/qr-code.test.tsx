import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QrCode } from './index.ts';

describe('QrCode', () => {
  it('renders an SVG QR code with a translated label', () => {
    render(<QrCode value="0x52908400098527886E0F7030069857D2E4169EE7" size={120} />);
    const svg = screen.getByTestId('qr-code');
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.getAttribute('aria-label')).toBe('二维码');
    expect(svg.getAttribute('width')).toBe('120');
    expect(svg.querySelectorAll('path').length).toBeGreaterThan(0);
  });
});
