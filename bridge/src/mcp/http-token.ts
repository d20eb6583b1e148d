import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { createPrivateFileOnce, readIfExists } from './files.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The HTTP transport's bearer (`<home>/http-token`, 0600): 32 random bytes, base64url, created once. */
export async function readOrCreateHttpToken(home: string): Promise<string> {
  const file = path.join(home, 'http-token');
  const existing = (await readIfExists(file))?.trim();
  if (existing !== undefined && TOKEN.test(existing)) return existing;
  if (existing !== undefined) throw new Error(`${file} does not hold a steward-bridge token; delete it to make a new one.`);
  await createPrivateFileOnce(file, `${randomBytes(32).toString('base64url')}\n`);
  const created = (await readIfExists(file))?.trim();
  if (created === undefined || !TOKEN.test(created)) throw new Error(`could not create ${file}`);
  return created;
}

/** Compares a presented bearer with the expected one in constant time (digests, so lengths do not leak either). */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const presented = /^Bearer (\S{1,512})$/.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
