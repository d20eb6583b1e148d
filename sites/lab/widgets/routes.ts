/**
 * The widget lab under `/widgets/`: one page per widget (`/widgets/<slug>?episode=…&…`), the
 * answers they send (`POST /widgets/<slug>/answer`, JSON `{episode, answer}` or a plain form whose
 * `episode` field names the episode), and the ground truth for tests and the bench:
 * `GET /widgets/__answers?episode=<id>` (a JSON list, oldest first) and `POST /widgets/__reset`.
 */
import { z } from 'zod';
import { HttpError, readRawBody, sendHtml, sendJson, validate, html, type RequestContext, type Router } from '../../http.ts';
import { page } from '../../ui.ts';
import { reactWidgetPage } from '../gallery/react-routes.ts';
import { REACT_WIDGET_SLUGS } from '../gallery/react/slugs.ts';
import { EpisodeId, type AnswerStore } from './answers.ts';
import { mountWidgetAssets } from './assets.ts';
import { COVERED_PAGES } from './covered.ts';
import { JQUERY_UI_PAGES } from './jquery-ui.ts';
import { KEY_PAGES } from './keys.ts';
import { NATIVE_PAGES } from './native.ts';
import type { WidgetPage } from './page.ts';
import { POINTER_PAGES } from './pointer.ts';
import { QUANTITY_PAGES } from './quantity.ts';
import { SHAPE_PAGES } from './shapes.ts';
import { VANILLA_CLICK_PAGES } from './vanilla-clicks.ts';

const REACT_WHAT: Readonly<Record<(typeof REACT_WIDGET_SLUGS)[number], string>> = {
  'mui-autocomplete': 'MUI Autocomplete: options appear in a popup listbox as you type',
  'mui-slider': 'MUI Slider (a hidden range input under a styled thumb)',
  'mui-tabs': 'MUI Tabs: a button on a tab not shown yet',
  'mui-menu': 'MUI Menu opened by an icon-only button',
  'mui-accordion': 'MUI Accordion: a checkbox inside a collapsed panel',
  'mui-tree': 'A file tree built from List, ListItemButton and Collapse',
  'mui-date': 'A date field (MUI TextField type=date)',
};

/** Every widget page, server-rendered or React. */
export const WIDGET_PAGES: readonly WidgetPage[] = [
  ...JQUERY_UI_PAGES,
  ...REACT_WIDGET_SLUGS.map((slug): WidgetPage => ({ slug, kit: 'react-mui', what: REACT_WHAT[slug] })),
  ...NATIVE_PAGES,
  ...VANILLA_CLICK_PAGES,
  ...COVERED_PAGES,
  ...KEY_PAGES,
  ...POINTER_PAGES,
  ...SHAPE_PAGES,
  ...QUANTITY_PAGES,
];

const BY_SLUG = new Map(WIDGET_PAGES.map((p) => [p.slug, p]));

const JsonAnswer = z.object({ episode: EpisodeId, answer: z.json() }).strict();

/** A form's fields as an object; a field sent more than once (a multiple select) is a list. */
function formFields(text: string): Record<string, string | string[]> {
  const params = new URLSearchParams(text);
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

async function readAnswer(ctx: RequestContext): Promise<{ episode: string; answer: unknown; form: boolean }> {
  const raw = (await readRawBody(ctx.req)).toString('utf8');
  const type = String(ctx.req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const { episode, ...answer } = formFields(raw);
    ctx.body = { episode, answer };
    return { episode: validate(EpisodeId, episode, 'Form field "episode"'), answer, form: true };
  }
  if (type !== 'application/json') throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the answer as application/json or a form, not ${type || 'no content type'}.`);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (err) {
    throw new HttpError(400, 'INVALID_JSON', `Request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  ctx.body = body;
  return { ...validate(JsonAnswer, body), form: false };
}

function indexPage(): string {
  const items = WIDGET_PAGES.map((p) => html`<li><a href="/widgets/${p.slug}">${p.slug}</a> <span class="muted">(${p.kit})</span> — ${p.what}</li>`);
  return page({ title: 'Widget lab — Steward Lab', brand: 'Steward Lab', accent: '#8a4b0f', body: html`<section class="card"><h1>Widget lab</h1><ul id="widget-pages">${items}</ul></section>` });
}

export function mountWidgets(router: Router, answers: AnswerStore): void {
  mountWidgetAssets(router);
  router.get('/widgets', (ctx) => sendHtml(ctx.res, 200, indexPage()));
  router.get('/widgets/__answers', (ctx) => {
    const raw = ctx.url.searchParams.get('episode');
    const episode = raw === null ? undefined : validate(EpisodeId, raw, 'Query "episode"');
    sendJson(ctx.res, 200, answers.list(episode));
  });
  router.post('/widgets/__reset', (ctx) => {
    answers.clear();
    sendJson(ctx.res, 200, { ok: true });
  });
  router.get('/widgets/:slug', (ctx) => {
    const slug = ctx.params.slug ?? '';
    const react = reactWidgetPage(slug);
    if (react) return sendHtml(ctx.res, 200, react());
    const render = BY_SLUG.get(slug)?.render;
    if (!render) throw new HttpError(404, 'NOT_FOUND', `No widget page called ${slug}.`);
    sendHtml(ctx.res, 200, render(Object.fromEntries(ctx.url.searchParams)));
  });
  router.post('/widgets/:slug/answer', async (ctx) => {
    const slug = ctx.params.slug ?? '';
    if (!BY_SLUG.has(slug)) throw new HttpError(404, 'NOT_FOUND', `No widget page called ${slug}.`);
    const { episode, answer, form } = await readAnswer(ctx);
    const entry = answers.record(slug, episode, answer);
    if (!form) return sendJson(ctx.res, 200, { ok: true, seq: entry.seq });
    sendHtml(
      ctx.res,
      200,
      page({ title: 'Received — Widget lab', brand: 'Steward Lab', accent: '#8a4b0f', body: html`<section class="card"><h1>Received</h1><p>The lab has your answer.</p></section>` }),
    );
  });
}
