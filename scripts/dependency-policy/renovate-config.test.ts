import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

/**
 * renovate.json is checked against the JSON schema Renovate publishes in its npm package
 * (renovate@<version>/renovate-schema.json, kept here with its source: the package itself brings
 * 120+ dependencies to a test that needs one file). Refresh: `npm pack renovate@<v>`, take
 * package/renovate-schema.json, update renovate-schema.source.json.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const here = (file: string) => path.join(import.meta.dirname, file);
const schemaText = readFileSync(here('renovate-schema.json'), 'utf8');
const schema = JSON.parse(schemaText) as {
  properties: Record<string, unknown>;
  definitions: { packageRules: { items: { allOf: { properties?: Record<string, unknown> }[] } } };
  'x-renovate-version': string;
};
const source = JSON.parse(readFileSync(here('renovate-schema.source.json'), 'utf8')) as Record<string, string>;
const config = JSON.parse(readFileSync(path.join(ROOT, 'renovate.json'), 'utf8')) as {
  packageRules: { groupName?: string; matchPackageNames?: string[]; [key: string]: unknown }[];
  [key: string]: unknown;
};
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

// The schema is draft-07 with Renovate's own annotations (markdownDescription, ...) and a "regex"
// format that is Renovate's to check. Compiled once: it is large.
const validate = new Ajv({ strict: false, allErrors: true, formats: { regex: true } }).compile(schema);

describe('renovate.json (dependency-update policy)', () => {
  it('uses the schema file its source record names, unmodified', () => {
    expect(createHash('sha256').update(schemaText).digest('hex')).toBe(source.sha256);
    expect(schema['x-renovate-version']).toBe(source.version);
  });

  it("is valid against Renovate's published schema", () => {
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check catches a wrong config (a value out of its set, a bad type)', () => {
    expect(validate({ ...config, rangeStrategy: 'pinned' })).toBe(false);
    expect(validate({ ...config, prConcurrentLimit: 'six' })).toBe(false);
  });

  it('names only options Renovate knows (the schema lets unknown keys through)', () => {
    const top = new Set(['$schema', ...Object.keys(schema.properties)]);
    // In a rule: the match* options plus any top-level option (groupName, allowedVersions, ...).
    const inRules = new Set(
      schema.definitions.packageRules.items.allOf.flatMap((part) => Object.keys(part.properties ?? {})),
    );
    expect(Object.keys(config).filter((key) => !top.has(key))).toEqual([]);
    const ruleKeys = config.packageRules.flatMap((rule) => Object.keys(rule));
    expect(ruleKeys.filter((key) => !inRules.has(key) && !top.has(key))).toEqual([]);
  });

  it('groups Module Federation/Rspack, React, the test tools, the server framework and the Node runtime', () => {
    const groups = Object.fromEntries(config.packageRules.map((r) => [r.groupName, r.matchPackageNames ?? []]));
    expect(groups['module federation and rspack']).toEqual(
      expect.arrayContaining(['@module-federation/**', '@rspack/**']),
    );
    expect(groups.react).toEqual(expect.arrayContaining(['react', 'react-dom']));
    expect(groups['test tools']).toEqual(expect.arrayContaining(['vitest', '@playwright/test']));
    expect(groups['server framework']).toEqual(expect.arrayContaining(['fastify', '@fastify/**']));
    const pinnedNode = Object.keys(pkg.optionalDependencies).filter((name) => name.startsWith('node-'));
    expect(groups['node runtime']).toEqual(expect.arrayContaining(pinnedNode));
  });
});
