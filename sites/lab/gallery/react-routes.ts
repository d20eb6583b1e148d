import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError, sendHtml, sendJson, sendScript, type Handler, type Router } from '../../http.ts';
import { MISMATCH_ORDER, REACT_GALLERY_SLUGS, REACT_WIDGET_SLUGS } from './react/slugs.ts';

/** Where `npm run build:gallery` (sites/lab/gallery/react/vite.config.ts) writes the SPA. */
const REACT_GALLERY_DIST = join(import.meta.dirname, '../../../dist-gallery/react');

/** Vite's hashed bundle names: nothing else under assets/ is served. */
const ASSET_NAME = /^[\w-]+\.js$/;

function notBuilt(): HttpError {
  return new HttpError(503, 'GALLERY_NOT_BUILT', 'The React gallery is not built (dist-gallery/react/index.html is missing). Run `npm run build:gallery`, then reload.');
}

/** Read on every request, so a rebuild is picked up without restarting the sites. */
function readOr(path: string, missing: () => HttpError): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw missing();
  }
}

/**
 * The gallery's react pages under `/gallery/react/<slug>` (see label.ts): one React + Material UI
 * single-page app routing on the path, so every page path answers with the same index.html.
 */
export function mountReactGallery(router: Router, dist = REACT_GALLERY_DIST): void {
  const slugs = new Set<string>(REACT_GALLERY_SLUGS);
  const spa: Handler = (ctx) => sendHtml(ctx.res, 200, readOr(join(dist, 'index.html'), notBuilt));
  router.get('/gallery/react', spa);
  router.get('/gallery/react/assets/:file', (ctx) => {
    const file = ctx.params.file ?? '';
    const missing = () => (existsSync(join(dist, 'index.html')) ? new HttpError(404, 'NOT_FOUND', `No gallery asset called ${file} (an older build?).`) : notBuilt());
    if (!ASSET_NAME.test(file)) throw new HttpError(404, 'NOT_FOUND', `No gallery asset called ${file}.`);
    sendScript(ctx.res, readOr(join(dist, 'assets', file), missing));
  });
  // The status-mismatch page's own API: the order as the server knows it (cancelled), unlike the page's chip.
  router.get('/gallery/react/api/orders/:id', (ctx) => {
    if (ctx.params.id !== MISMATCH_ORDER.id) throw new HttpError(404, 'ORDER_NOT_FOUND', `No order ${ctx.params.id ?? ''}.`);
    sendJson(ctx.res, 200, MISMATCH_ORDER);
  });
  router.get('/gallery/react/:slug', (ctx) => {
    if (!slugs.has(ctx.params.slug ?? '')) throw new HttpError(404, 'NOT_FOUND', `No React gallery page called ${ctx.params.slug ?? ''}.`);
    return spa(ctx);
  });
}

/** The SPA's page for a React widget slug (`/widgets/mui-slider`), or undefined for any other slug. */
export function reactWidgetPage(slug: string, dist = REACT_GALLERY_DIST): (() => string) | undefined {
  if (!(REACT_WIDGET_SLUGS as readonly string[]).includes(slug)) return undefined;
  return () => readOr(join(dist, 'index.html'), notBuilt);
}
