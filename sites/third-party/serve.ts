/**
 * Serves the third-party WebMCP demo pages (upstream.ts) from the lab, byte for byte as their
 * upstream repository has them at the pinned commit. The bytes come from a local git snapshot of
 * that repository, never from this repository: a directory holding `<owner>+<name>/repo` (the
 * layout this workplace's snapshot tool writes), `<owner>+<name>/.git` or a bare `<owner>+<name>`,
 * under STEWARD_UPSTREAM_SNAPSHOTS (default /work/.mirror). Without a snapshot the pages answer
 * 404 saying so, and the e2e spec skips with the same reason.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError, type Router } from '../http.ts';
import { UPSTREAM_REPOS, thirdPartyPath, type UpstreamFile, type UpstreamRepo } from './upstream.ts';

const SNAPSHOTS_ENV = 'STEWARD_UPSTREAM_SNAPSHOTS';
const DEFAULT_SNAPSHOTS = '/work/.mirror';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

type Read = { ok: true; bytes: Buffer } | { ok: false; reason: string };

function gitDirOf(repo: string): string | undefined {
  const root = process.env[SNAPSHOTS_ENV] || DEFAULT_SNAPSHOTS;
  const base = join(root, repo.replace('/', '+'));
  return [join(base, 'repo'), join(base, '.git'), base].find((dir) => existsSync(join(dir, 'HEAD')));
}

/** Git's id of a blob with these bytes: what `git rev-parse <commit>:<path>` names. */
const blobId = (bytes: Buffer): string => createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');

const cache = new Map<string, Read>();

/** One upstream file at the pinned commit, checked against its blob id. */
function readUpstream(upstream: UpstreamRepo, file: UpstreamFile): Read {
  const key = `${upstream.repo}@${upstream.commit}:${file.path}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const read = ((): Read => {
    const gitDir = gitDirOf(upstream.repo);
    if (!gitDir) return { ok: false, reason: `no snapshot of ${upstream.repo} under ${process.env[SNAPSHOTS_ENV] || DEFAULT_SNAPSHOTS} (set ${SNAPSHOTS_ENV})` };
    let bytes: Buffer;
    try {
      bytes = execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${upstream.commit}:${file.path}`], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 8 << 20 });
    } catch (error) {
      return { ok: false, reason: `${upstream.repo}'s snapshot lacks ${file.path} at ${upstream.commit}: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` };
    }
    const id = blobId(bytes);
    if (id !== file.blob) return { ok: false, reason: `${upstream.repo}:${file.path} at ${upstream.commit} is blob ${id}, not the pinned ${file.blob}` };
    return { ok: true, bytes };
  })();
  cache.set(key, read);
  return read;
}

/** Whether every pinned file (and its licence) can be served here; the first reason it cannot otherwise. */
export function thirdPartyAvailability(): { ok: true } | { ok: false; reason: string } {
  for (const upstream of UPSTREAM_REPOS) {
    for (const file of [upstream.licenceFile, ...upstream.files]) {
      const read = readUpstream(upstream, file);
      if (!read.ok) return read;
    }
  }
  return { ok: true };
}

export function mountThirdParty(router: Router): void {
  for (const upstream of UPSTREAM_REPOS) {
    for (const file of upstream.files) {
      const type = TYPES[Object.keys(TYPES).find((ext) => file.path.endsWith(ext)) ?? ''] ?? 'application/octet-stream';
      router.get(thirdPartyPath(upstream, file.path), (ctx) => {
        const read = readUpstream(upstream, file);
        if (!read.ok) throw new HttpError(404, 'UPSTREAM_SNAPSHOT_MISSING', read.reason);
        ctx.res.statusCode = 200;
        ctx.res.setHeader('content-type', type);
        ctx.res.setHeader('cache-control', 'no-store');
        ctx.res.end(read.bytes);
      });
    }
  }
}
