/**
 * Which workspaces `npm run typecheck` may check in one tsc program (scripts/typecheck.ts). Two workspaces
 * share a program only when their tsconfig.json resolve to the same compiler options, so every file is
 * checked under exactly the options its own workspace gives it; a workspace whose files declare globals or
 * augment a module is checked alone (its declarations would otherwise be visible to the other members).
 * The root project (scripts, e2e, configs: e2e specs add test-only `window` fields) is always alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface TypecheckUnit {
  /** Workspace folders (relative to the root, '.' for the root project). */
  dirs: string[];
  /** The union of the members' root files, for a unit of two or more; undefined: use the workspace's own tsconfig. */
  files?: string[];
}

interface Parsed {
  dir: string;
  options: string;
  files: string[];
  mergeable: boolean;
}

const AMBIENT = /^\s*declare\s+(global|module)\b/m;

function parse(root: string, dir: string): Parsed {
  const configPath = path.join(root, dir, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`${configPath} unreadable`);
  const { configFilePath: _path, ...options } = config.options;
  const files = config.fileNames.map((f) => path.resolve(f));
  // globals.d.ts is shared by every workspace on purpose; any other ambient declaration keeps its workspace alone.
  const mergeable =
    dir !== '.' && files.every((f) => path.basename(f) === 'globals.d.ts' || !AMBIENT.test(readFileSync(f, 'utf8')));
  return { dir, options: JSON.stringify(options, Object.keys(options).sort()), files, mergeable };
}

/** Workspaces in `dirs` order, those with equal options (and no ambient declarations) joined into one unit. */
export function groupWorkspaces(root: string, dirs: string[]): TypecheckUnit[] {
  const units: TypecheckUnit[] = [];
  const byOptions = new Map<string, { unit: TypecheckUnit; files: Set<string> }>();
  for (const dir of dirs) {
    const parsed = parse(root, dir);
    const same = parsed.mergeable ? byOptions.get(parsed.options) : undefined;
    if (same) {
      same.unit.dirs.push(dir);
      for (const f of parsed.files) same.files.add(f);
      same.unit.files = [...same.files];
      continue;
    }
    const unit: TypecheckUnit = { dirs: [dir] };
    units.push(unit);
    if (parsed.mergeable) byOptions.set(parsed.options, { unit, files: new Set(parsed.files) });
  }
  return units;
}
