import { readFileSync } from 'node:fs';
import { dirname, extname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, type RequestContext, type Router } from '../../../http.ts';

/** Where the pages load Shoelace from: its `cdn/` build (self-contained ES modules, relative chunk imports). */
export const SHOELACE_BASE = '/gallery/wc/_shoelace';

// The package exports only `dist/`; its `cdn/` build sits beside it.
const CDN_DIR = join(dirname(dirname(fileURLToPath(import.meta.resolve('@shoelace-style/shoelace')))), 'cdn');

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

function sendAsset(ctx: RequestContext): void {
  const segments = Object.values(ctx.params);
  const type = TYPES[extname(segments.at(-1) ?? '')];
  if (!type || !segments.every((s) => SEGMENT.test(s) && !s.includes('..'))) throw new HttpError(404, 'NOT_FOUND', `No Shoelace asset ${ctx.url.pathname}.`);
  const file = join(CDN_DIR, ...segments);
  if (!file.startsWith(CDN_DIR + sep)) throw new HttpError(404, 'NOT_FOUND', `No Shoelace asset ${ctx.url.pathname}.`);
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch {
    throw new HttpError(404, 'NOT_FOUND', `No Shoelace asset ${ctx.url.pathname}.`);
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('content-type', type);
  ctx.res.setHeader('cache-control', 'max-age=3600');
  ctx.res.setHeader('x-content-type-options', 'nosniff');
  ctx.res.setHeader('content-length', body.byteLength);
  ctx.res.end(body);
}

/** Serves Shoelace's files (`shoelace-autoloader.js`, `chunks/…`, `components/x/x.js`, `themes/light.css`, `assets/icons/…`). */
export function mountShoelaceAssets(router: Router): void {
  router.get(`${SHOELACE_BASE}/:a`, sendAsset);
  router.get(`${SHOELACE_BASE}/:a/:b`, sendAsset);
  router.get(`${SHOELACE_BASE}/:a/:b/:c`, sendAsset);
  router.get(`${SHOELACE_BASE}/:a/:b/:c/:d`, sendAsset);
}
