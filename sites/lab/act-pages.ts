/**
 * `/act/…`: small pages for the DOM primitives beyond click and type (issue 26), each with what the
 * server received as ground truth (`GET /act/__state`, `POST /act/__reset`): a form submitted by
 * Enter, a menu that opens on hover, a pointer-dragged slider (the way jQuery UI's works: mousedown
 * on the handle, mousemove / mouseup on the document), lists sorted by pointer drag and by HTML5
 * drag-and-drop, a checkbox and an ARIA switch that save at once, a file field, a span marked up as
 * a disclosure (role=button, aria-expanded) that deletes, a page that never stops changing, and a "Delete" drop zone.
 */
import { z } from 'zod';
import { html, parseBody, raw, sendHtml, sendJson, type Router, type SafeHtml } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

interface ActState {
  submissions: Array<Record<string, string>>;
  slider: number[];
  orders: Array<{ list: string; order: string[] }>;
  toggles: Array<{ name: string; on: boolean }>;
  deleted: string[];
  dropped: string[];
}

const fresh = (): ActState => ({ submissions: [], slider: [], orders: [], toggles: [], deleted: [], dropped: [] });
let state = fresh();

const CSS = `.track{position:relative;width:400px;height:12px;background:#dde1e6;border-radius:6px;margin:24px 0}
.handle{position:absolute;top:-6px;width:24px;height:24px;margin-left:-12px;border-radius:50%;background:var(--accent);cursor:grab}
.sortable li{padding:10px 14px;margin:4px 0;background:#fff;border:1px solid #c3c9d1;border-radius:8px;cursor:grab;list-style:none;width:260px}
.menu{display:none;border:1px solid #c3c9d1;background:#fff;padding:6px;width:200px}.menu.open{display:block}
.zone{width:260px;height:60px;border:2px dashed #b42318;display:flex;align-items:center;justify-content:center}
.toggle{display:inline-block;padding:6px 12px;border:1px solid #c3c9d1;border-radius:999px;cursor:pointer}`;

function shell(title: string, body: SafeHtml, script: string): string {
  return page({
    title: `${title} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    css: CSS,
    body: html`<section class="card"><h1>${title}</h1>${body}</section>${raw(`<script>${script}</script>`)}`,
  });
}

const post = `const post = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });`;

const SLIDER = `${post}
const track = document.getElementById('track'), handle = document.getElementById('handle'), out = document.getElementById('volume-value');
let value = 20, dragging = false;
const show = (v) => { value = Math.max(0, Math.min(100, Math.round(v))); handle.style.left = value + '%'; handle.setAttribute('aria-valuenow', String(value)); out.textContent = 'Volume: ' + value; };
show(20);
handle.addEventListener('mousedown', (e) => { dragging = true; e.preventDefault(); });
document.addEventListener('mousemove', (e) => { if (!dragging) return; const r = track.getBoundingClientRect(); show(((e.clientX - r.left) / r.width) * 100); });
document.addEventListener('mouseup', () => { if (!dragging) return; dragging = false; post('/act/slider', { value }); });`;

const SORTABLE = `${post}
const list = document.getElementById('pointer-list');
let held = null;
list.addEventListener('pointerdown', (e) => { held = e.target.closest('li'); });
document.addEventListener('pointermove', (e) => {
  if (!held) return;
  const over = document.elementFromPoint(e.clientX, e.clientY)?.closest('#pointer-list li');
  if (!over || over === held) return;
  const r = over.getBoundingClientRect();
  list.insertBefore(held, e.clientY >= Math.floor(r.top + r.height / 2) ? over.nextSibling : over);
});
document.addEventListener('pointerup', () => { if (!held) return; held = null; post('/act/order', { list: 'pointer', order: [...list.children].map((li) => li.textContent) }); });
const dnd = document.getElementById('dnd-list');
let dragged = null;
dnd.addEventListener('dragstart', (e) => { dragged = e.target.closest('li'); e.dataTransfer.setData('text/plain', dragged.textContent); });
dnd.addEventListener('dragover', (e) => e.preventDefault());
dnd.addEventListener('drop', (e) => {
  e.preventDefault();
  const over = e.target.closest('li');
  if (!over || !dragged || over === dragged || e.dataTransfer.getData('text/plain') !== dragged.textContent) return;
  const r = over.getBoundingClientRect();
  dnd.insertBefore(dragged, e.clientY >= Math.floor(r.top + r.height / 2) ? over.nextSibling : over);
  post('/act/order', { list: 'dnd', order: [...dnd.children].map((li) => li.textContent) });
});
const zone = document.getElementById('trash');
zone.addEventListener('dragover', (e) => e.preventDefault());
zone.addEventListener('drop', (e) => { e.preventDefault(); const t = e.dataTransfer.getData('text/plain'); post('/act/drop', { item: t }); [...dnd.children].find((li) => li.textContent === t)?.remove(); });`;

const MENU = `const trigger = document.getElementById('account'), menu = document.getElementById('account-menu');
trigger.addEventListener('mouseenter', () => { menu.classList.add('open'); trigger.setAttribute('aria-expanded', 'true'); });
document.getElementById('menu-wrap').addEventListener('mouseleave', () => { menu.classList.remove('open'); trigger.setAttribute('aria-expanded', 'false'); });`;

const TOGGLES = `${post}
document.getElementById('news').addEventListener('change', (e) => post('/act/toggle', { name: 'newsletter', on: e.target.checked }));
const sw = document.getElementById('dark');
sw.addEventListener('click', () => { const on = sw.getAttribute('aria-checked') !== 'true'; sw.setAttribute('aria-checked', String(on)); post('/act/toggle', { name: 'dark', on }); });
sw.addEventListener('keydown', (e) => { if (e.key === ' ') { e.preventDefault(); sw.click(); } });`;

const SPAN = `document.getElementById('details').addEventListener('click', (e) => {
  fetch('/act/items/7', { method: 'DELETE' }).then(() => { document.getElementById('item-7').remove(); });
});`;

const FOREVER = `const t = document.getElementById('tick'); let n = 0;
setInterval(() => { t.textContent = 'Tick ' + (++n); }, 10);
document.getElementById('hello').addEventListener('click', () => { document.getElementById('said').textContent = 'Hello back'; });`;

const KEYS = `const log = (s) => document.getElementById('log').append(s + ';');
document.getElementById('go').addEventListener('click', () => log('go'));
document.getElementById('styled').addEventListener('click', () => log('styled'));
document.getElementById('open').addEventListener('click', () => document.getElementById('dlg').showModal());
document.getElementById('dlg').addEventListener('close', () => log('closed'));
document.getElementById('half').addEventListener('click', () => log('half'));`;

export function mountActPages(router: Router): void {
  router.get('/act/keys', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Keys',
        html`<p><input id="first" aria-label="First" tabindex="2"> <input id="second" aria-label="Second" tabindex="1"> <input id="third" aria-label="Third"></p>
<p><span id="go" role="button" tabindex="0">Go</span> <span id="styled" tabindex="0" style="cursor:pointer">Styled</span></p>
<p><input type="range" id="level" aria-label="Level" min="0" max="10" value="5"></p>
<p><select id="size" aria-label="Size"><option>Small</option><option selected>Medium</option><option disabled>Huge</option><option>Large</option></select></p>
<p><label><input type="radio" name="tone" value="a" checked> Warm</label><label><input type="radio" name="tone" value="b"> Cool</label></p>
<p><button type="button" id="open">Open dialog</button></p><dialog id="dlg"><p>Dialog</p><button type="button">Inside</button></dialog>
<div style="position:relative;width:200px;height:60px"><button type="button" id="half" style="width:200px;height:60px">Half covered</button><div id="sticky" role="banner" aria-label="Promo" style="position:absolute;left:0;top:0;width:200px;height:40px;background:#000"></div></div>
<p id="log"></p>`,
        KEYS,
      ),
    ),
  );
  router.get('/act/form', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Contact us',
        html`<form method="post" action="/act/form" aria-label="Contact form">
<div class="field"><label for="who">Your name</label><input id="who" name="who" value=""></div>
<div class="field"><label for="topic">Topic</label><input id="topic" name="topic" value=""></div>
<button type="submit">Send message</button></form>`,
        '',
      ),
    ),
  );
  router.post('/act/form', async (ctx) => {
    const body = await parseBody(ctx, z.record(z.string(), z.string()));
    state.submissions.push(body);
    sendHtml(ctx.res, 200, shell('Message sent', html`<p>Thank you, ${body.who ?? ''}.</p>`, ''));
  });
  router.get('/act/menu', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Account',
        html`<div id="menu-wrap"><button type="button" id="account" aria-haspopup="menu" aria-expanded="false">Account</button>
<ul class="menu" id="account-menu" role="menu"><li role="menuitem" tabindex="-1">Profile</li><li role="menuitem" tabindex="-1">Billing</li></ul></div><p style="margin-top:120px">Footer text</p>`,
        MENU,
      ),
    ),
  );
  router.get('/act/slider', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Sound',
        html`<div class="track" id="track"><span class="handle" id="handle" role="slider" tabindex="0" aria-label="Volume" aria-valuemin="0" aria-valuemax="100" aria-valuenow="20"></span></div><p id="volume-value">Volume: 20</p>`,
        SLIDER,
      ),
    ),
  );
  router.get('/act/sortable', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Priorities',
        html`<ul class="sortable" id="pointer-list" aria-label="Pointer list"><li tabindex="0" aria-label="Alpha">Alpha</li><li tabindex="0" aria-label="Bravo">Bravo</li><li tabindex="0" aria-label="Charlie">Charlie</li></ul>
<ul class="sortable" id="dnd-list" aria-label="Drag list"><li draggable="true" tabindex="0" aria-label="Xray">Xray</li><li draggable="true" tabindex="0" aria-label="Yankee">Yankee</li><li draggable="true" tabindex="0" aria-label="Zulu">Zulu</li></ul>
<div class="zone" id="trash" tabindex="0" role="button" aria-label="Delete">Delete</div>`,
        SORTABLE,
      ),
    ),
  );
  router.get('/act/toggles', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shell(
        'Preferences',
        html`<label><input type="checkbox" id="news"> Weekly newsletter</label>
<p><span class="toggle" id="dark" role="switch" tabindex="0" aria-checked="false">Dark mode</span></p>
<div class="field"><label for="cv">Your CV</label><input type="file" id="cv" name="cv"></div>`,
        TOGGLES,
      ),
    ),
  );
  router.get('/act/span', (ctx) =>
    sendHtml(ctx.res, 200, shell('Items', html`<p id="item-7">Item 7 · <span id="details" role="button" tabindex="0" aria-expanded="false">View details</span></p>`, SPAN)),
  );
  router.get('/act/forever', (ctx) => sendHtml(ctx.res, 200, shell('Busy page', html`<p id="tick">Tick 0</p><button type="button" id="hello">Say hello</button><p id="said"></p>`, FOREVER)));

  router.post('/act/slider', async (ctx) => {
    const { value } = await parseBody(ctx, z.object({ value: z.number() }));
    state.slider.push(value);
    sendJson(ctx.res, 200, { ok: true });
  });
  router.post('/act/order', async (ctx) => {
    state.orders.push(await parseBody(ctx, z.object({ list: z.string(), order: z.array(z.string()).max(20) })));
    sendJson(ctx.res, 200, { ok: true });
  });
  router.post('/act/toggle', async (ctx) => {
    state.toggles.push(await parseBody(ctx, z.object({ name: z.string(), on: z.boolean() })));
    sendJson(ctx.res, 200, { ok: true });
  });
  router.post('/act/drop', async (ctx) => {
    state.dropped.push((await parseBody(ctx, z.object({ item: z.string() }))).item);
    sendJson(ctx.res, 200, { ok: true });
  });
  router.on('DELETE', '/act/items/:id', (ctx) => {
    state.deleted.push(ctx.params.id ?? '');
    sendJson(ctx.res, 200, { ok: true });
  });
  router.get('/act/__state', (ctx) => sendJson(ctx.res, 200, state));
  router.post('/act/__reset', (ctx) => {
    state = fresh();
    sendJson(ctx.res, 200, { ok: true });
  });
}
