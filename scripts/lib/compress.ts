import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants, gunzipSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(js|css|html|json|svg|map|txt)$/;

/**
 * Brotli quality of the .br siblings: 11 (the smallest files) unless DEPLOY_BROTLI_QUALITY says otherwise.
 * Quality 11 costs ~63 s of CPU over the host, the console and the five remotes (quality 5: ~3 s, files
 * ~10 % larger), so the e2e server's start sets 5 (playwright.config.ts): it still serves .br siblings that
 * decode to the very bytes of the build, only less tightly packed. A release keeps 11.
 */
export function brotliQuality(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.DEPLOY_BROTLI_QUALITY?.trim();
  if (!text) return constants.BROTLI_MAX_QUALITY;
  const quality = Number(text);
  if (!Number.isInteger(quality) || quality < constants.BROTLI_MIN_QUALITY || quality > constants.BROTLI_MAX_QUALITY) {
    throw new Error(`DEPLOY_BROTLI_QUALITY must be an integer from 0 to 11, not ${text}`);
  }
  return quality;
}

/**
 * The .gz and .br siblings of `relative` taken from an earlier version folder whose file of that name
 * has the very same bytes (a chunk unchanged since the live version: its name carries its content
 * hash), or false. Brotli at quality 11 is most of a deploy's time; an unchanged chunk compresses the same.
 */
async function reuseCompressed(body: Buffer, relative: string, file: string, earlier: string[]): Promise<boolean> {
  for (const dir of earlier) {
    const before = path.join(dir, relative);
    const same = await readFile(before).then(
      (bytes) => bytes.equals(body),
      () => false,
    );
    if (!same) continue;
    try {
      const [gz, br] = await Promise.all([readFile(`${before}.gz`), readFile(`${before}.br`)]);
      // Reused only if they decode to the very bytes (review s8, finding 6): a damaged or tampered sibling
      // of the live version must not survive a redeploy. Output bounded to the source's size (+1 to see more).
      const limit = { maxOutputLength: body.length + 1 };
      if (!gunzipSync(gz, limit).equals(body) || !brotliDecompressSync(br, limit).equals(body)) continue;
      await writeFile(`${file}.gz`, gz);
      await writeFile(`${file}.br`, br);
      return true;
    } catch {
      // An earlier folder without its siblings, or siblings that do not decode: compress here.
    }
  }
  return false;
}

/**
 * Write .gz and .br siblings for text assets, served as precompressed files. `earlier`: version
 * folders deployed before (the live one), whose siblings of byte-identical files are copied.
 */
export async function precompress(dir: string, earlier: string[] = []): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const quality = brotliQuality();
  await Promise.all(
    entries
      .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
      .map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        const body = await readFile(file);
        if (await reuseCompressed(body, path.relative(dir, file), file, earlier)) return;
        await writeFile(`${file}.gz`, await gzipAsync(body, { level: 9 }));
        await writeFile(
          `${file}.br`,
          await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
        );
      }),
  );
}
