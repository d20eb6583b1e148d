import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Merge } from './json-config.ts';

/**
 * Writes a client's config file with one entry merged in: the merge sees the file's current text
 * (or nothing, when there is no file yet) and either gives the new text or refuses, in which case
 * the file is not touched. The old file is kept beside it (`<file>.bak-<time>`, 0600: a config may
 * hold other secrets), and the new text replaces it atomically with the old file's mode (0600 for a
 * new one), less any access by others when the entry holds a secret (an HTTP client's bearer: whoever
 * reads it can act as the client once it is paired). A symlinked config (dotfile managers) is written through.
 */

export type WriteOutcome = { ok: true; file: string; backup?: string; changed: boolean; madePrivate: boolean } | { ok: false; problem: string };

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeNew(file: string, text: string, mode: number): Promise<void> {
  const handle = await open(file, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  // open's mode is filtered by the umask; the file must end up with exactly the mode meant.
  await chmod(file, mode);
}

const stamp = (now: Date) => now.toISOString().replace(/[:.]/g, '-');

export async function writeMerged(file: string, merge: (existing: string | undefined) => Merge, options: { secret: boolean; now?: Date }): Promise<WriteOutcome> {
  const target = await realpath(file).catch(() => path.resolve(file));
  let existing: string | undefined;
  let mode = 0o600;
  try {
    existing = await readIfExists(target);
    if (existing !== undefined) mode = (await stat(target)).mode & 0o777;
  } catch (error) {
    return { ok: false, problem: `${target} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was changed.` };
  }
  const merged = merge(existing);
  if (!merged.ok) return { ok: false, problem: `${target} was left as it is: ${merged.problem}.` };
  const newMode = options.secret ? mode & 0o700 : mode;
  const madePrivate = existing !== undefined && newMode !== mode;
  if (merged.text === existing && !madePrivate) return { ok: true, file: target, changed: false, madePrivate };

  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    let backup: string | undefined;
    if (existing !== undefined) {
      backup = `${target}.bak-${stamp(options.now ?? new Date())}`;
      await writeNew(backup, existing, 0o600);
    }
    await writeNew(temp, merged.text, newMode);
    await rename(temp, target);
    return { ok: true, file: target, changed: true, madePrivate, ...(backup ? { backup } : {}) };
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    return { ok: false, problem: `${target} could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it was left as it was.` };
  }
}
