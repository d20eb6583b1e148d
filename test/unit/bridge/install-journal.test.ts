import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../bridge/src/install/journal.ts';
import { tempDir } from './cli-process.ts';
import { filesUnder, makeUnwritable } from './install-homes.ts';

let dir: ReturnType<typeof tempDir>;
let undo: Array<() => void>;
beforeEach(() => {
  dir = tempDir();
  undo = [];
});
afterEach(() => {
  for (const u of undo) u();
  dir.remove();
});

describe('a write that fails half-way', () => {
  it('is undone with everything before it: replaced files get their bytes and mode back, new files and dirs go', (context) => {
    const old = join(dir.path, 'old.json');
    writeFileSync(old, 'before', { mode: 0o600 });
    const locked = join(dir.path, 'locked');
    mkdirSync(locked);
    const relock = makeUnwritable(locked);
    if (!relock) return context.skip('neither a file mode nor chattr can make a dir unwritable here');
    undo.push(relock);

    const journal = new Journal();
    expect(journal.write(old, 'after', 0o644)).toBe(true);
    journal.mkdirs(join(dir.path, 'a', 'b'));
    expect(journal.write(join(dir.path, 'a', 'b', 'new.json'), 'new', 0o644)).toBe(false);
    expect(() => journal.write(join(locked, 'x.json'), 'x', 0o644)).toThrow();

    expect(journal.rollback()).toEqual([]);
    expect(readFileSync(old, 'utf8')).toBe('before');
    expect(statSync(old).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir.path, 'a'))).toBe(false);
    expect(filesUnder(dir.path)).toEqual(['old.json']);
  });
});
