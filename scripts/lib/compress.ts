import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants, gunzipSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(js|css|html|json|svg|map|txt)$/;

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
  await Promise.all(
    entries
      .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
      .map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        const body = await readFile(file);
        if (await reuseCompressed(body, path.relative(dir, file), file, earlier)) return;
        await writeFile(`${file}.gz`, await gzipAsync(body, { level: 9 }));
        await writeFile(`${file}.br`, await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }),
  );
}
