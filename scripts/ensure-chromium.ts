/**
 * The e2e suite drives the system Chromium (/usr/bin/chromium, Debian's
 * package); Playwright's own browser downloads are not used. Installs it
 * with apt-get when running as root, otherwise says what to install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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

if (existsSync(CHROMIUM_PATH)) {
  console.log(`[ensure-chromium] found ${CHROMIUM_PATH}`);
  process.exit(0);
}

if (process.getuid?.() !== 0) {
  console.error(
    `[ensure-chromium] ${CHROMIUM_PATH} is missing. Install Chromium with: sudo apt-get install -y chromium fonts-noto-cjk\n` +
      '(or set CHROMIUM_PATH to an existing Chromium binary).',
  );
  process.exit(1);
}

if (!aptListsPresent()) apt(['update']);
if (!apt(['install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'])) {
  // A stale package list is the usual cause: refresh once and retry.
  if (!apt(['update']) || !apt(['install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'])) {
    console.error('[ensure-chromium] apt-get could not install chromium');
    process.exit(1);
  }
}
if (!existsSync(CHROMIUM_PATH)) {
  console.error(`[ensure-chromium] chromium installed but ${CHROMIUM_PATH} is still missing`);
  process.exit(1);
}
console.log(`[ensure-chromium] installed ${CHROMIUM_PATH}`);
