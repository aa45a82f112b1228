/**
 * Refreshes the offline IFSC branch list (server/data/ifsc/IFSC.json) from the `ifsc` package on the
 * npm registry, without installing it: the package's runtime pulls the deprecated `request` (43
 * packages) for an online lookup the server never makes, while all we use is its data file.
 *
 *   npx tsx server/scripts/update-ifsc.ts [version]     (default: the registry's latest)
 *
 * `npm pack` fetches the tarball through the ordinary client, which checks it against the registry's
 * integrity; the data is checked for shape before it replaces the old file, and source.json records the
 * version, the tarball's integrity and the file's sha256 (ifsc-data.test.ts checks the file still
 * matches it, so a hand edit or a partial copy fails the tests).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  checkIfscData,
  type IfscSource,
  ifscDataFile,
  ifscSourceFile,
} from '../src/modules/payment-methods/ifsc-data.ts';

const PACKAGE = 'ifsc';
const DATA_PATH_IN_TARBALL = 'package/src/IFSC.json';

interface PackResult {
  version: string;
  integrity: string;
  filename: string;
}

function main(): void {
  const wanted = process.argv[2] ?? 'latest';
  const work = mkdtempSync(path.join(tmpdir(), 'ifsc-'));
  try {
    const out = execFileSync('npm', ['pack', `${PACKAGE}@${wanted}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
    });
    const [packed] = JSON.parse(out) as PackResult[];
    if (!packed) throw new Error('npm pack returned nothing');
    execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', work, DATA_PATH_IN_TARBALL]);
    const text = readFileSync(path.join(work, DATA_PATH_IN_TARBALL), 'utf8');
    const banks = checkIfscData(JSON.parse(text));
    const source: IfscSource = {
      package: PACKAGE,
      version: packed.version,
      integrity: packed.integrity,
      file: 'src/IFSC.json',
      license: 'MIT (Razorpay)',
      sha256: createHash('sha256').update(text).digest('hex'),
    };
    writeFileSync(ifscDataFile, text);
    writeFileSync(ifscSourceFile, `${JSON.stringify(source, null, 2)}\n`);
    console.log(`IFSC data from ${PACKAGE}@${packed.version}: ${banks} banks`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
