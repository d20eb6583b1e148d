/** The lab's routes: one path per hard page, their scripts, and the `/__demo/` test controls. */
import { z } from 'zod';
import { RequestLog, Router, escapeHtml, queryObject, raw, sendHtml, sendJson, sendScript, validate, type RequestContext } from '../http.ts';
import type { DemoSite } from '../site.ts';
import { CANVAS_SCRIPT, HOSTILE_SCRIPT, HOSTILE_TOOLS_SCRIPT, SHADOW_SCRIPT, WEBMCP_LAB_SCRIPT } from './client.ts';
import { MAX_GRID_ELEMENTS, MIN_GRID_ELEMENTS, userId } from './grid.ts';
import {
  LAB,
  canvasPage,
  framesPage,
  gridPage,
  hostilePage,
  hostileToolsPage,
  indexPage,
  innerFramePage,
  labErrorPage,
  sameNameToolPage,
  shadowPage,
  stallingToolPage,
  unpaintedPage,
  visibilityPage,
} from './pages.ts';
import { page } from '../ui.ts';
import { mountGallery } from './gallery/routes.ts';
import { mountChurnPage } from './churn-page.ts';
import { mountOpenRedirect } from './open-redirect.ts';
import { mountNewTabs } from './new-tabs.ts';
import { mountIdentityPages } from './identity-pages.ts';
import { mountWebMcpFailures } from './webmcp-failures.ts';
import { mountWebMcpListing } from './webmcp-listing.ts';
import { mountWebMcpFence } from './webmcp-fence.ts';
import { mountWptWebMcp } from './wpt-webmcp.ts';
import { mountThirdParty } from '../third-party/serve.ts';
import { mountWebMcpCases } from './webmcp-cases.ts';
import { mountWebMcpContinue } from './webmcp-continue.ts';
import { mountActPages } from './act-pages.ts';
import { mountConsentPages } from './consent-pages.ts';
import { mountSinkPages } from './sink-pages.ts';
import { AnswerStore } from './widgets/answers.ts';
import { mountWidgets } from './widgets/routes.ts';

const LAB_TITLE = 'Steward Lab (hard pages for observers: shadow DOM, frames, visibility, canvas, hostile, big grids)';

const GridQuery = z.object({
  n: z.coerce.number().int().min(MIN_GRID_ELEMENTS).max(MAX_GRID_ELEMENTS).default(1600),
});

/** A 2×2 opaque PNG: drawn from another origin, it taints the canvas it is drawn on. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/**
 * The same server under its other loopback name is another origin (localhost ↔ 127.0.0.1):
 * enough for a cross-origin iframe or image without a second server.
 */
function otherOrigin(hostHeader: string | undefined): string {
  const host = hostHeader ?? 'localhost';
  const match = /^(localhost|127\.0\.0\.1)(:\d+)?$/.exec(host);
  if (!match) return `http://localhost${host.includes(':') ? host.slice(host.lastIndexOf(':')) : ''}`;
  return `http://${match[1] === 'localhost' ? '127.0.0.1' : 'localhost'}${match[2] ?? ''}`;
}

function sendPng(ctx: RequestContext): void {
  ctx.res.statusCode = 200;
  ctx.res.setHeader('content-type', 'image/png');
  ctx.res.setHeader('cache-control', 'no-store');
  ctx.res.setHeader('content-length', PIXEL_PNG.byteLength);
  ctx.res.end(PIXEL_PNG);
}

export function createLab(): DemoSite {
  const log = new RequestLog();
  const answers = new AnswerStore();
  const router = new Router({ renderHtmlError: (e) => labErrorPage(e.status, e.code, e.message), onRequestLogged: log.add });

  router.get('/', (ctx) => sendHtml(ctx.res, 200, indexPage()));
  mountGallery(router);
  mountChurnPage(router);
  mountOpenRedirect(router);
  mountNewTabs(router);
  mountIdentityPages(router);
  mountWebMcpListing(router);
  mountWebMcpFence(router);
  mountWptWebMcp(router);
  mountThirdParty(router);
  mountWebMcpCases(router);
  const resetCheckout = mountWebMcpContinue(router);
  mountActPages(router);
  mountConsentPages(router);
  mountSinkPages(router);
  mountWidgets(router, answers);
  router.get('/shadow', (ctx) => sendHtml(ctx.res, 200, shadowPage()));
  router.get('/frames', (ctx) => sendHtml(ctx.res, 200, framesPage(`${otherOrigin(ctx.req.headers.host)}/frames/inner`)));
  router.get('/frames/inner', (ctx) => sendHtml(ctx.res, 200, innerFramePage()));
  router.get('/visibility', (ctx) => sendHtml(ctx.res, 200, visibilityPage()));
  router.get('/canvas', (ctx) => sendHtml(ctx.res, 200, canvasPage(`${otherOrigin(ctx.req.headers.host)}/assets/pixel.png`)));
  router.get('/hostile', (ctx) => sendHtml(ctx.res, 200, hostilePage()));
  router.get('/hostile-tools', (ctx) => sendHtml(ctx.res, 200, hostileToolsPage()));
  router.get('/unpainted', (ctx) => sendHtml(ctx.res, 200, unpaintedPage()));
  router.post('/hostile/submit', (ctx) => sendHtml(ctx.res, 200, labErrorPage(200, 'SUBMITTED', 'The clobbered form was submitted.')));
  router.get('/grid', (ctx) => {
    const { n } = validate(GridQuery, queryObject(ctx.url), 'Query');
    sendHtml(ctx.res, 200, gridPage(n));
  });
  router.get('/grid/users/:id', (ctx) => {
    const id = escapeHtml(ctx.params.id ?? '');
    sendHtml(
      ctx.res,
      200,
      page({ title: `${id} — ${LAB.brand}`, brand: LAB.brand, accent: LAB.accent, body: raw(`<section class="card"><h1>Member ${id}</h1><p><a href="/grid">Back to the table</a></p></section>`) }),
    );
  });
  router.get('/assets/shadow.js', (ctx) => sendScript(ctx.res, SHADOW_SCRIPT));
  router.get('/assets/canvas.js', (ctx) => sendScript(ctx.res, CANVAS_SCRIPT));
  router.get('/assets/hostile.js', (ctx) => sendScript(ctx.res, HOSTILE_SCRIPT));
  router.get('/webmcp/stalls', (ctx) => sendHtml(ctx.res, 200, stallingToolPage()));
  router.get('/webmcp/same-name', (ctx) => sendHtml(ctx.res, 200, sameNameToolPage()));
  mountWebMcpFailures(router);
  router.get('/assets/webmcp-lab.js', (ctx) => sendScript(ctx.res, WEBMCP_LAB_SCRIPT));
  // The WebMCP pages report each call their tools receive; the request log keeps it.
  router.post('/api/tool-calls', (ctx) => sendJson(ctx.res, 200, { ok: true }));
  router.get('/assets/hostile-tools.js', (ctx) => sendScript(ctx.res, HOSTILE_TOOLS_SCRIPT));
  router.get('/assets/pixel.png', sendPng);

  const state = (): Record<string, unknown> => ({
    site: 'lab',
    generated_at: new Date().toISOString(),
    first_user: userId(0),
    requests: log.list(),
    request_total: log.total,
    widget_answers: answers.list(),
  });
  router.get('/__demo/state', (ctx) => sendJson(ctx.res, 200, state()));
  const reset = (): void => {
    log.clear();
    answers.clear();
    resetCheckout();
  };
  router.post('/__demo/reset', (ctx) => {
    reset();
    sendJson(ctx.res, 200, { ok: true, site: 'lab' });
  });

  return { name: 'lab', title: LAB_TITLE, listener: router.listener, reset, state };
}
