import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Only src/pipeline and src/storage reach the stores. The service worker, the side panel and the
 * content scripts ask the pipeline (`pipeline.admin`, submit, recheck…), never its stores, its
 * runner, the database or IndexedDB itself.
 */

const ROOT = join(import.meta.dirname, '../../..');
const OUTSIDE = ['src/background', 'src/sidepanel', 'src/content'];

/** Names that are a store, the database, or a raw read of it. */
const STORE_NAME = /Store$|^StewardDb$|^StewardSchema$|^StoreName$|^openStewardDb$|^AuditLog$|^readValid$|^DB_NAME$|^DB_VERSION$/;
const REACHING_IN: [RegExp, string][] = [
  [/\bpipeline(?:\(\))?\s*\.\s*(?:deps|runner)\b/, 'reaches into the pipeline'],
  [/\.deps\s*\.\s*(?:tokens|approvals|idempotency|journal|audit|memory|gateway|taint)\b/, 'reaches a store through deps'],
  [/\bindexedDB\b/, 'opens IndexedDB'],
  [/\bdb\s*\.\s*(?:get|getAll|getAllFromIndex|getAllKeys|put|add|delete|clear|count|transaction)\s*\(/, 'reads or writes the database'],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx|svelte)$/.test(e.name) ? [path] : [];
  });
}

/** What a file does that only src/pipeline and src/storage may do. */
function violations(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s+(?:type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    const [, clause = '', specifier = ''] = m;
    if (!/(^|\/)storage\//.test(specifier)) continue;
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    if (!braces) {
      found.push(`imports all of ${specifier}`);
      continue;
    }
    const names = (braces[1] ?? '')
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter(Boolean);
    for (const name of names) if (STORE_NAME.test(name)) found.push(`imports ${name} from ${specifier}`);
  }
  for (const [pattern, what] of REACHING_IN) if (pattern.test(text)) found.push(what);
  return found;
}

describe('the stores sit behind the pipeline', () => {
  it('recognises each way of reaching a store (the scan below is not vacuous)', () => {
    expect(violations("import type { StewardDb } from '../../storage/db.ts';")).toEqual(['imports StewardDb from ../../storage/db.ts']);
    expect(violations("import {\n  tokenStatus,\n  TokenStore as TS,\n} from '../storage/token-store.ts';")).toEqual(['imports TokenStore from ../storage/token-store.ts']);
    expect(violations("import * as storage from '../storage/journal-store.ts';")).toEqual(['imports all of ../storage/journal-store.ts']);
    expect(violations('await pipeline.deps.tokens.revoke(id);')).toEqual(['reaches into the pipeline', 'reaches a store through deps']);
    expect(violations('(await deps.ready()).runner.run(x); x.deps.journal.unfinished();')).toEqual(['reaches a store through deps']);
    expect(violations("const all = await db.getAll('journal_actions');")).toEqual(['reads or writes the database']);
    expect(violations("indexedDB.open('steward');")).toEqual(['opens IndexedDB']);
    // A constant the panel shows, a tab observer's own deps, a tool store of the service worker: allowed.
    expect(violations("import { MAX_TOKEN_TTL_MS } from '../../storage/token-store.ts';")).toEqual([]);
    expect(violations("await this.deps.waitLoaded(tabId); import { ToolStore } from './tools/store.ts';")).toEqual([]);
  });

  it('nothing in the service worker, the side panel or the content scripts touches a store, the database or pipeline.deps', () => {
    const files = OUTSIDE.flatMap((dir) => sources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(30);
    const offending = files.flatMap((file) => violations(readFileSync(file, 'utf8')).map((v) => `${relative(ROOT, file)}: ${v}`));
    expect(offending).toEqual([]);
  });
});
