import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The end-to-end layer's layout: test/e2e holds specs only, and what specs, the bench and
 * `npm start` share lives in test/harness, so nothing imports from a spec folder.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const E2E = join(ROOT, 'test', 'e2e');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist' || name.startsWith('dist-')) return [];
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.(ts|tsx|mts)$/.test(name) ? [full] : [];
  });
}

describe('the end-to-end layout', () => {
  it('test/e2e holds specs, their global set-up and the data a spec reads, nothing to import', () => {
    const others = readdirSync(E2E).filter((name) => !/\.spec\.ts$/.test(name) && name !== 'global-setup.ts' && !name.endsWith('.json'));
    expect(others).toEqual([]);
  });

  it('no file outside test/e2e imports from it', () => {
    const sources = ['bench', 'scripts', 'sites', 'src', 'test', 'bridge/src'].flatMap((dir) => walk(join(ROOT, dir))).filter((file) => !file.startsWith(E2E + '/'));
    const reaching = sources.flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((spec) => spec.startsWith('.') && resolve(dirname(file), spec).startsWith(E2E + '/'))
        .map((spec) => `${relative(ROOT, file)} → ${spec}`),
    );
    expect(reaching).toEqual([]);
  });
});
