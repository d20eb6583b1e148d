import { link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Creates `dir` (and parents) private to this user. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Writes a 0600 file under a temporary name first, so no reader ever sees half of it. */
async function writeTemp(file: string, content: string): Promise<string> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Replaces `file` atomically with `content` (mode 0600). */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  await ensurePrivateDir(path.dirname(file));
  const temp = await writeTemp(file, content);
  await rename(temp, file);
}

/**
 * Creates `file` with `content` (mode 0600) only if it does not exist yet: a hard link fails on an
 * existing name, so two processes racing here both end up reading the one that won.
 */
export async function createPrivateFileOnce(file: string, content: string): Promise<void> {
  await ensurePrivateDir(path.dirname(file));
  const temp = await writeTemp(file, content);
  try {
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temp);
  }
}

/** The file's text, or undefined when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function removeIfExists(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
