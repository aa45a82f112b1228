/**
 * The e2e suite drives the system Chromium (/usr/bin/chromium, Debian's package); Playwright's own
 * browser downloads are not used. It also needs the fonts the screens are checked with: the Latin UI
 * font (Roboto) ships with the app itself (@fontsource-variable/roboto), but the CJK text renders in the
 * system's CJK font (fonts-noto-cjk) and the narrow-layout checks force Debian's default fallback
 * (DejaVu Sans, fonts-dejavu-core). Installs whatever of these is missing with apt-get when running as
 * root, otherwise says what to install. A browser that is present does not excuse missing fonts: a
 * machine with Chromium but no CJK font would render boxes and measure nothing real.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian packages and how to tell each is there. */
const NEEDS = [
  { pkg: 'chromium', present: () => existsSync(CHROMIUM_PATH) },
  { pkg: 'fonts-noto-cjk', present: () => fontInstalled('Noto Sans CJK SC') },
  { pkg: 'fonts-dejavu-core', present: () => fontInstalled('DejaVu Sans') },
];

function fontInstalled(family: string): boolean {
  const result = spawnSync('fc-list', [':', 'family'], { encoding: 'utf8' });
  if (result.status !== 0) return false;
  return result.stdout.split('\n').some((line) => line.split(',').some((name) => name.trim() === family));
}

function apt(args: string[]): boolean {
  console.log(`[ensure-chromium] apt-get ${args.join(' ')}`);
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

function aptListsPresent(): boolean {
  try {
    return readdirSync('/var/lib/apt/lists').some((f) => f.endsWith('_Packages') || f.endsWith('_Packages.lz4'));
  } catch {
    return false;
  }
}

const missing = NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
if (missing.length === 0) {
  console.log(`[ensure-chromium] found ${CHROMIUM_PATH}, Noto Sans CJK and DejaVu Sans`);
  process.exit(0);
}

if (process.getuid?.() !== 0) {
  console.error(
    `[ensure-chromium] missing: ${missing.join(', ')}. Install with: sudo apt-get install -y ${missing.join(' ')}\n` +
      '(or set CHROMIUM_PATH to an existing Chromium binary).',
  );
  process.exit(1);
}

if (!aptListsPresent()) apt(['update']);
const install = ['install', '-y', '--no-install-recommends', ...missing];
if (!apt(install)) {
  // A stale package list is the usual cause: refresh once and retry.
  if (!apt(['update']) || !apt(install)) {
    console.error(`[ensure-chromium] apt-get could not install ${missing.join(', ')}`);
    process.exit(1);
  }
}
const still = NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
if (still.length > 0) {
  console.error(`[ensure-chromium] installed, but still missing: ${still.join(', ')}`);
  process.exit(1);
}
console.log(`[ensure-chromium] installed ${missing.join(', ')}`);
