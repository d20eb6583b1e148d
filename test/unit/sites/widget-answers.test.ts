/** The widget lab's answer store and its routes: what pages send, per episode, readable and clearable. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnswerStore } from '../../../sites/lab/widgets/answers.ts';
import { WIDGET_PAGES } from '../../../sites/lab/widgets/routes.ts';
import { freePorts, startDemoSites, type RunningDemoSites } from '../../../sites/server.ts';

let sites: RunningDemoSites;
let lab: string;
beforeAll(async () => {
  sites = await startDemoSites({ ports: freePorts() });
  lab = sites.urls.lab;
});
afterAll(async () => {
  await sites?.stop();
});
beforeEach(async () => {
  await fetch(`${lab}/widgets/__reset`, { method: 'POST' });
});

const postJson = (slug: string, body: unknown) =>
  fetch(`${lab}/widgets/${slug}/answer`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
const postForm = (slug: string, body: string) =>
  fetch(`${lab}/widgets/${slug}/answer`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body });
const answers = async (episode?: string) =>
  (await (await fetch(`${lab}/widgets/__answers${episode ? `?episode=${episode}` : ''}`)).json()) as Array<{ episode: string; slug: string; answer: unknown; seq: number }>;

describe('AnswerStore', () => {
  it('keeps answers per episode, oldest first, as copies', () => {
    const store = new AnswerStore();
    const answer = { order: ['a', 'b'] };
    store.record('jq-sortable', 'e1', answer);
    store.record('v-inbox', 'e2', { opened: 'm3' });
    answer.order.push('c');
    expect(store.list('e1').map((a) => a.answer)).toEqual([{ order: ['a', 'b'] }]);
    expect(store.list().map((a) => a.seq)).toEqual([1, 2]);
    store.list('e1')[0]!.episode = 'changed';
    expect(store.list('e1')).toHaveLength(1);
    store.clear();
    expect(store.list()).toEqual([]);
  });

  it('stays bounded, dropping the oldest', () => {
    const store = new AnswerStore();
    for (let i = 0; i < 2_100; i++) store.record('v-search', 'e', { query: String(i) });
    const kept = store.list();
    expect(kept).toHaveLength(2_000);
    expect(kept[0]!.answer).toEqual({ query: '100' });
  });
});

describe('widget answer routes', () => {
  it('record a JSON answer under its episode and page', async () => {
    const res = await postJson('v-quantity', { episode: 't07-3', answer: { quantity: 3 } });
    expect(res.status).toBe(200);
    expect(await answers('t07-3')).toMatchObject([{ episode: 't07-3', slug: 'v-quantity', answer: { quantity: 3 } }]);
    expect(await answers('other')).toEqual([]);
  });

  it('record a plain form post, a field sent twice as a list, and answer with a page', async () => {
    const res = await postForm('native-select-multiple', 'episode=f1&toppings=mushrooms&toppings=olives');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    await postForm('native-date', 'episode=f1&departure=2027-01-15');
    expect((await answers('f1')).map((a) => a.answer)).toEqual([{ toppings: ['mushrooms', 'olives'] }, { departure: '2027-01-15' }]);
  });

  it('refuse bad input with a clear error and keep nothing', async () => {
    const bad = [
      await postJson('v-quantity', { episode: 'has space', answer: 1 }),
      await postJson('v-quantity', { answer: 1 }),
      await postJson('v-quantity', { episode: 'e', answer: 1, extra: true }),
      await fetch(`${lab}/widgets/v-quantity/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' }),
      await postForm('native-date', 'departure=2027-01-15'),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(((await bad[0]!.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    const plain = await fetch(`${lab}/widgets/v-quantity/answer`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', accept: 'application/json' }, body: '--x--' });
    expect(plain.status).toBe(415);
    expect((await postJson('no-such-page', { episode: 'e', answer: 1 })).status).toBe(404);
    expect((await fetch(`${lab}/widgets/__answers?episode=a%26b`)).status).toBe(400);
    expect(await answers()).toEqual([]);
  });

  it('clear with POST /widgets/__reset and with the lab’s /__demo/reset; the lab state lists them', async () => {
    await postJson('v-search', { episode: 'r1', answer: { query: 'tent' } });
    const state = (await (await fetch(`${lab}/__demo/state`)).json()) as { widget_answers: unknown[] };
    expect(state.widget_answers).toHaveLength(1);
    expect((await fetch(`${lab}/widgets/__reset`, { method: 'POST' })).status).toBe(200);
    expect(await answers()).toEqual([]);
    await postJson('v-search', { episode: 'r1', answer: { query: 'tent' } });
    await fetch(`${lab}/__demo/reset`, { method: 'POST' });
    expect(await answers()).toEqual([]);
  });
});

describe('widget pages', () => {
  it('are listed on /widgets and linked from the lab index', async () => {
    const index = await (await fetch(`${lab}/widgets`, { headers: { accept: 'text/html' } })).text();
    for (const p of WIDGET_PAGES) expect(index).toContain(`href="/widgets/${p.slug}"`);
    expect(await (await fetch(`${lab}/`, { headers: { accept: 'text/html' } })).text()).toContain('href="/widgets"');
    expect(new Set(WIDGET_PAGES.map((p) => p.slug)).size).toBe(WIDGET_PAGES.length);
  });

  it('load jQuery and jQuery UI with its theme from the lab itself, and nothing else from there', async () => {
    const page = await (await fetch(`${lab}/widgets/jq-datepicker`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('src="/widgets/_lib/jquery.js"');
    expect(page).not.toMatch(/src="https?:/);
    const jq = await fetch(`${lab}/widgets/_lib/jquery.js`);
    expect(jq.headers.get('content-type')).toContain('javascript');
    expect(await jq.text()).toContain('3.7.1');
    expect(await (await fetch(`${lab}/widgets/_lib/jquery-ui.js`)).text()).toContain('1.14.');
    const css = await (await fetch(`${lab}/widgets/_lib/jquery-ui.css`)).text();
    const sprite = /url\("?images\/(ui-icons_[\w]+\.png)/.exec(css)?.[1];
    expect(sprite).toBeDefined();
    expect((await fetch(`${lab}/widgets/_lib/images/${sprite}`)).headers.get('content-type')).toBe('image/png');
    for (const path of ['_lib/package.json', '_lib/images/..%2F..%2Fpackage.json', '_lib/images/ui-x.gif']) expect((await fetch(`${lab}/widgets/${path}`)).status, path).toBe(404);
  });

  it('refuse a bad parameter instead of guessing', async () => {
    expect((await fetch(`${lab}/widgets/jq-datepicker?month=soon`, { headers: { accept: 'application/json' } })).status).toBe(400);
    expect((await fetch(`${lab}/widgets/v-svg-shapes?layout=9`, { headers: { accept: 'application/json' } })).status).toBe(400);
    expect((await fetch(`${lab}/widgets/v-nothing`, { headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('put what a task varies in the page from its query, the same every time', async () => {
    const a = await (await fetch(`${lab}/widgets/v-svg-shapes?layout=2`)).text();
    expect(await (await fetch(`${lab}/widgets/v-svg-shapes?layout=2`)).text()).toBe(a);
    expect(await (await fetch(`${lab}/widgets/v-svg-shapes?layout=3`)).text()).not.toBe(a);
  });
});
