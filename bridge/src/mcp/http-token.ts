import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { createPrivateFileOnce, readIfExists } from './files.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const newToken = () => randomBytes(32).toString('base64url');
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The HTTP transport's default bearer (`<home>/http-token`, 0600): 32 random bytes, base64url, created once. */
export async function readOrCreateHttpToken(home: string): Promise<string> {
  const file = path.join(home, 'http-token');
  const existing = (await readIfExists(file))?.trim();
  if (existing !== undefined && TOKEN.test(existing)) return existing;
  if (existing !== undefined) throw new Error(`${file} does not hold a steward-bridge token; delete it to make a new one.`);
  await createPrivateFileOnce(file, `${newToken()}\n`);
  const created = (await readIfExists(file))?.trim();
  if (created === undefined || !TOKEN.test(created)) throw new Error(`could not create ${file}`);
  return created;
}

const ClientBearer = z.object({ client: z.string().min(1).max(120), token: z.string().regex(TOKEN) });
const clientBearerFile = (home: string, client: string) => path.join(home, 'http-clients', `${digest(client).toString('hex')}.json`);

/**
 * A bearer of one HTTP client's own (`steward-bridge http-token --client NAME`): the pairing made
 * with it belongs to that bearer, so another HTTP client, even one calling itself by the same name,
 * cannot use it without the bearer.
 */
export async function readOrCreateClientHttpToken(home: string, client: string): Promise<string> {
  const file = clientBearerFile(home, client);
  await createPrivateFileOnce(file, `${JSON.stringify({ client, token: newToken() })}\n`);
  const stored = ClientBearer.safeParse(JSON.parse((await readIfExists(file)) ?? 'null'));
  if (!stored.success || stored.data.client !== client) throw new Error(`${file} does not hold this client's bearer; delete it to make a new one.`);
  return stored.data.token;
}

/** Which bearer a request presented: `default` (the shared one) or `client:<name>`. */
export type BearerId = string;

/**
 * The bearers the HTTP server accepts, each compared in constant time (by digest, so lengths do
 * not leak). A bearer created while the server runs (`http-token --client`) is found on the next
 * miss: the client bearers' folder is re-read when it changed, so a flood of wrong bearers costs
 * one stat each.
 */
export class HttpBearers {
  private bearers: Array<{ id: BearerId; digest: Buffer }> = [];
  private loadedVersion = '';

  constructor(private readonly home: string) {}

  private async folderVersion(): Promise<string> {
    const s = await stat(path.join(this.home, 'http-clients')).catch(() => undefined);
    return s ? `${s.mtimeMs}:${s.ino}` : 'none';
  }

  async load(): Promise<void> {
    const version = await this.folderVersion();
    const found = [{ id: 'default', digest: digest(await readOrCreateHttpToken(this.home)) }];
    const dir = path.join(this.home, 'http-clients');
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const name of files.filter((f) => f.endsWith('.json'))) {
      const parsed = ClientBearer.safeParse(JSON.parse((await readIfExists(path.join(dir, name)).catch(() => undefined)) ?? 'null'));
      if (parsed.success) found.push({ id: `client:${parsed.data.client}`, digest: digest(parsed.data.token) });
    }
    this.bearers = found;
    this.loadedVersion = version;
  }

  /** The id of the bearer in an `Authorization: Bearer …` header, or undefined. */
  async identify(header: string | null | undefined): Promise<BearerId | undefined> {
    const presented = /^Bearer (\S{1,512})$/.exec(header ?? '')?.[1];
    if (presented === undefined) return undefined;
    const match = () => {
      const d = digest(presented);
      let id: BearerId | undefined;
      for (const b of this.bearers) if (timingSafeEqual(d, b.digest)) id = b.id;
      return id;
    };
    const id = match();
    if (id !== undefined || (await this.folderVersion()) === this.loadedVersion) return id;
    await this.load();
    return match();
  }
}
