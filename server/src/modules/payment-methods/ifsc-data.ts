import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The offline IFSC branch list: the data file of the `ifsc` package (Razorpay, MIT), kept in
 * server/data/ifsc by server/scripts/update-ifsc.ts instead of installing the package, whose runtime
 * pulls the deprecated `request` tree for an online lookup the server never makes.
 * Shape: 4-letter bank code -> branch codes (the 6 characters after the 0; numeric ones as numbers).
 */
export const ifscDataDir = path.resolve(import.meta.dirname, '../../../data/ifsc');
export const ifscDataFile = path.join(ifscDataDir, 'IFSC.json');
export const ifscSourceFile = path.join(ifscDataDir, 'source.json');

/** Where the data came from (source.json), written by the update script and checked by a test. */
export interface IfscSource {
  package: string;
  version: string;
  /** The registry tarball's integrity, as npm pack reported it. */
  integrity: string;
  file: string;
  license: string;
  /** sha256 of IFSC.json as written. */
  sha256: string;
}

export type IfscBranches = Record<string, (string | number)[]>;

/** Far fewer banks than the list has named for years (257 in 2.0.50) means a truncated or wrong file. */
const MIN_BANKS = 200;
const BANK_CODE = /^[A-Z]{4}$/;

/** Throws unless `data` has the list's shape; returns how many banks it names. */
export function checkIfscData(data: unknown): number {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('IFSC data is not an object');
  const entries = Object.entries(data);
  if (entries.length < MIN_BANKS) throw new Error(`IFSC data names ${entries.length} banks, expected >= ${MIN_BANKS}`);
  for (const [bank, branches] of entries) {
    if (!BANK_CODE.test(bank)) throw new Error(`IFSC data has a bad bank code ${JSON.stringify(bank)}`);
    if (!Array.isArray(branches) || !branches.every((b) => typeof b === 'string' || typeof b === 'number')) {
      throw new Error(`IFSC data has bad branches for ${bank}`);
    }
  }
  return entries.length;
}

let loaded: IfscBranches | undefined;

/** The branch list, read once on first use (about 1 MB). */
export function ifscBranches(): IfscBranches {
  loaded ??= JSON.parse(readFileSync(ifscDataFile, 'utf8')) as IfscBranches;
  return loaded;
}
