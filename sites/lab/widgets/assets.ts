/**
 * jQuery and jQuery UI served from node_modules (never a CDN), as a site that vendors them does:
 * `/widgets/_lib/jquery.js`, `/widgets/_lib/jquery-ui.js`, the default ("base") theme's
 * `/widgets/_lib/jquery-ui.css` and the icon sprites it loads from `images/`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, type RequestContext, type Router } from '../../http.ts';

export const LIB_BASE = '/widgets/_lib';

const JQUERY_DIST = dirname(fileURLToPath(import.meta.resolve('jquery')));
// The package's main is ui/widget.js; its bundled build and themes sit in dist/.
const JQUERY_UI_DIST = join(dirname(dirname(fileURLToPath(import.meta.resolve('jquery-ui')))), 'dist');
const THEME_DIR = join(JQUERY_UI_DIST, 'themes', 'base');

const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  'jquery.js': { file: join(JQUERY_DIST, 'jquery.min.js'), type: 'text/javascript; charset=utf-8' },
  'jquery-ui.js': { file: join(JQUERY_UI_DIST, 'jquery-ui.min.js'), type: 'text/javascript; charset=utf-8' },
  'jquery-ui.css': { file: join(THEME_DIR, 'jquery-ui.min.css'), type: 'text/css; charset=utf-8' },
};

const IMAGE = /^ui-[\w-]+\.png$/;

function send(ctx: RequestContext, file: string, type: string): void {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch {
    throw new HttpError(404, 'NOT_FOUND', `No library file ${ctx.url.pathname}.`);
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('content-type', type);
  ctx.res.setHeader('cache-control', 'max-age=3600');
  ctx.res.setHeader('x-content-type-options', 'nosniff');
  ctx.res.setHeader('content-length', body.byteLength);
  ctx.res.end(body);
}

export function mountWidgetAssets(router: Router): void {
  router.get(`${LIB_BASE}/images/:file`, (ctx) => {
    const name = ctx.params.file ?? '';
    if (!IMAGE.test(name)) throw new HttpError(404, 'NOT_FOUND', `No theme image ${name}.`);
    send(ctx, join(THEME_DIR, 'images', name), 'image/png');
  });
  router.get(`${LIB_BASE}/:file`, (ctx) => {
    const known = FILES[ctx.params.file ?? ''];
    if (!known) throw new HttpError(404, 'NOT_FOUND', `No library file ${ctx.url.pathname}.`);
    send(ctx, known.file, known.type);
  });
}
