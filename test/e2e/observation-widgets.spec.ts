import type { Page } from '@playwright/test';
import { renderObserved } from '../../src/observation/render/index.ts';
import type { PageSnapshot, SnapshotElement } from '../../src/protocol/snapshot.ts';
import type { ObservedState } from '../../src/protocol/observed-state.ts';
import { WIDGET_TASKS, answersFor, judge, withEpisode } from '../../sites/lab/widgets/tasks.ts';
import { test, expect } from '../harness/fixtures.ts';
import { approve, control, data, mint, submit, type Card } from '../harness/pipeline-helpers.ts';

/**
 * Issue 26's page-side capture on the widget lab, through the real extension and the pipeline: what
 * covers a control (and whether anything can), range bounds, SVG shapes by kind, colour and size,
 * and popups tied to the control that opened them. The lab's server (answersFor) is the ground
 * truth of what a press did.
 */

type Result = Record<string, unknown> & { error?: { code: string; message: string }; execution?: { status: string } };

let episodes = 0;

async function agentOn(
  fx: { steward: { context: import('@playwright/test').BrowserContext }; openPanel: (p: Page) => Promise<Page>; tabIdOf: (p: Page) => Promise<number> },
  lab: string,
  path: string,
) {
  const episode = `geom-${Date.now().toString(36)}-${++episodes}`;
  const page = await fx.steward.context.newPage();
  await page.goto(`${lab}${withEpisode(path, episode)}`);
  await page.waitForLoadState('load');
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const token = await mint(panel, { scope: ['dom:*'], resource_scope: '*', origins: [new URL(lab).origin] });
  const snapshot = async () => data<PageSnapshot>(control(panel, { type: 'panel/snapshot-tab', tabId }));
  const observed = async () => {
    const r = await data<{ state: ObservedState | null; error?: string }>(control(panel, { type: 'panel/observe-tab', tabId }));
    if (!r.state) throw new Error(`observe-tab failed: ${r.error}`);
    return r.state;
  };
  /** The text an agent reads: the page's rendering with the actions folded in. */
  const look = async () => renderObserved(await snapshot(), await observed());
  let n = 0;
  /** Runs an action through the pipeline as an agent asks for it, the person approving its card if one comes up. */
  const run = async (action: string, input: Record<string, unknown>): Promise<Result> => {
    const o = await observed();
    let settled = false;
    const pending = data(submit(panel, { token, tabId, request: { action, resource: o.resource, input, idempotency_key: `${episode}-${++n}` }, wait_for_approval: true })).finally(() => {
      settled = true;
    });
    while (!settled) {
      const cards = (await data<{ pending: Card[] }>(control(panel, { type: 'panel/approvals' }))).pending;
      const card = cards.find((c) => c.action === action);
      if (card) {
        expect(await approve(panel, card)).toMatchObject({ ok: true });
        break;
      }
      await page.waitForTimeout(100);
    }
    return (await pending).result as Result;
  };
  return { page, episode, snapshot, observed, look, run };
}

const named = (s: { elements: SnapshotElement[] }, name: string, role?: string): SnapshotElement => {
  const found = s.elements.filter((e) => e.name === name && (!role || e.role === role));
  expect(found, `exactly one element named "${name}"`).toHaveLength(1);
  return found[0]!;
};
const offered = (o: ObservedState, ref: string, action = 'dom.click') => (o.actions ?? []).some((a) => a.action === action && a.target_ref === ref);

test('covered controls: reached where a person can press them, named by what covers them, or said unreachable', async ({ steward, sites, openPanel, tabIdOf }) => {
  const lab = sites.urls.lab;
  const fx = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/v-covered');
  const snap = await fx.snapshot();
  const o = await fx.observed();

  // Half under the sticky header (the page opens scrolled), under a sibling badge, under a pass-through overlay: a person presses them where they show.
  for (const name of ['Save draft', 'Add to list', 'Preview']) {
    const e = named(snap, name);
    expect(e.visibility, name).toBe('visible');
    expect(offered(o, e.ref), name).toBe(true);
  }
  await expect(fx.page.locator('#save')).toBeVisible();
  const saveBox = (await fx.page.locator('#save').boundingBox())!;
  // It really is half under the 60 px sticky bar.
  expect(saveBox.y).toBeLessThan(60);
  expect(saveBox.y + saveBox.height).toBeGreaterThan(60);

  // Clipped away inside an overflow-hidden box: covered, by nothing anyone can dismiss, and not offered.
  const clipped = named(snap, 'Delete forever');
  expect(clipped.visibility).toBe('covered');
  expect(clipped.coveredBy).toBeUndefined();
  expect(offered(o, clipped.ref)).toBe(false);

  // Wholly under the cookie banner: offered, with the banner named and its Close button's ref to clear it first.
  const publish = named(snap, 'Publish');
  const close = named(snap, 'Close', 'button');
  expect(publish.visibility).toBe('covered');
  expect(publish.coveredBy).toEqual({ role: 'overlay', name: 'We use cookies to keep you signed in.', ref: close.ref });
  expect(offered(o, publish.ref)).toBe(true);
  const look = await fx.look();
  expect(look).toContain(`${publish.ref} button "Publish"`);
  // The cover is named by its role and the ref that dismisses it; its words are on their own line.
  expect(look).toContain(`(covered by overlay ${close.ref})`);
  expect(look).toContain('"We use cookies to keep you signed in."');
  expect(look).not.toMatch(new RegExp(`${clipped.ref} button "Delete forever"[^\\n]*covered by`));

  // Pressing Publish is refused at the moment of acting, naming the banner; the page got nothing.
  const refused = await fx.run('dom.click', { ref: publish.ref });
  expect(refused.error?.message).toMatch(/COVERED.*covered by overlay “We use cookies to keep you signed in\.”/);
  // The same refusal as data, for the person's language: the button and what covers it, as the observation names them.
  expect(refused.error_said).toEqual({
    code: 'act_refused',
    params: { reason: 'covered', role: 'button', name: 'Publish', cover_role: 'overlay', cover_name: 'We use cookies to keep you signed in.' },
  });
  expect(await answersFor(lab, fx.episode)).toEqual([]);

  // Close the banner with the ref the observation gave, then Publish works.
  expect((await fx.run('dom.click', { ref: close.ref })).error).toBeUndefined();
  await expect(fx.page.locator('#cookie')).toHaveCount(0);
  const after = await fx.snapshot();
  expect(named(after, 'Publish')).toMatchObject({ visibility: 'visible' });
  expect(named(after, 'Publish').coveredBy).toBeUndefined();
  expect((await fx.run('dom.click', { ref: publish.ref })).error).toBeUndefined();
  await expect
    .poll(
      async () =>
        judge(
          WIDGET_TASKS.find((t) => t.id === 'v-covered-banner')!,
          await answersFor(lab, fx.episode),
        ).solved,
    )
    .toBe(true);
});

test('a control half under a sticky header is pressed through the pipeline where it shows', async ({ steward, sites, openPanel, tabIdOf }) => {
  const lab = sites.urls.lab;
  const fx = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/v-covered');
  const save = named(await fx.snapshot(), 'Save draft');
  expect((await fx.run('dom.click', { ref: save.ref })).error).toBeUndefined();
  await expect
    .poll(
      async () =>
        judge(
          WIDGET_TASKS.find((t) => t.id === 'v-covered-sticky')!,
          await answersFor(lab, fx.episode),
        ).solved,
    )
    .toBe(true);
});

test('SVG shapes by kind, colour and size: "click the large red circle" is answered and done through the pipeline', async ({ steward, sites, openPanel, tabIdOf }) => {
  const lab = sites.urls.lab;
  const task = WIDGET_TASKS.find((t) => t.id === 'v-svg-large-red')!;
  const fx = await agentOn({ steward, openPanel, tabIdOf }, lab, task.path);
  const snap = await fx.snapshot();
  const shapes = snap.elements.filter((e) => e.shape);
  // The page's eight shapes (sites/lab/widgets/shapes.ts), as a person describes them; they have a pointer cursor, so none is passive.
  expect(shapes.map((e) => `${e.shape!.kind} ${e.shape!.fill} ${e.shape!.size}`).sort()).toEqual(
    ['circle red large', 'circle red small', 'circle blue large', 'square blue small', 'square red large', 'triangle green large', 'triangle yellow small', 'circle green small'].sort(),
  );
  for (const s of shapes) expect(s).toMatchObject({ role: 'graphics-symbol', visibility: 'visible' });
  expect(shapes.filter((s) => s.passive)).toEqual([]);
  const target = shapes.find((s) => s.shape!.kind === 'circle' && s.shape!.fill === 'red' && s.shape!.size === 'large')!;
  const o = await fx.observed();
  expect(offered(o, target.ref)).toBe(true);
  // Every shape gets its own line: look-alike folding does not hide which is which.
  const look = await fx.look();
  for (const s of shapes) expect(look).toContain(`${s.ref} ${s.shape!.kind} ${s.shape!.fill} ${s.shape!.size}`);

  expect((await fx.run('dom.click', { ref: target.ref })).error).toBeUndefined();
  await expect.poll(async () => judge(task, await answersFor(lab, fx.episode))).toEqual({ solved: true, first: task.expected });
});

test('shapes nothing reacts to are shown, not offered; icons, hidden drawings and huge charts are not listed shape by shape', async ({ steward, sites, openPanel, tabIdOf }) => {
  const fx = await agentOn({ steward, openPanel, tabIdOf }, sites.urls.lab, '/widgets/v-svg-shapes?layout=0');
  await fx.page.evaluate(() => {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = (w: number, attrs: Record<string, string> = {}) => {
      const s = document.createElementNS(ns, 'svg');
      s.setAttribute('width', String(w));
      s.setAttribute('height', String(w));
      for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
      document.body.append(s);
      return s;
    };
    const shape = (parent: Element, tag: string, attrs: Record<string, string>) => {
      const el = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      parent.append(el);
      return el;
    };
    // A legend nobody clicks: an orange ellipse, a navy outlined square with a title, a label.
    const legend = svg(200, { id: 'legend' });
    shape(legend, 'ellipse', { cx: '50', cy: '40', rx: '40', ry: '20', fill: '#ff8c00' });
    shape(shape(legend, 'rect', { x: '110', y: '10', width: '60', height: '60', fill: 'none', stroke: '#000080', 'stroke-width': '4' }), 'title', {}).textContent = 'Legend box';
    shape(legend, 'text', { x: '10', y: '150' }).textContent = 'Sales by region';
    // An icon (24 px) and an aria-hidden drawing: no shapes of theirs.
    shape(svg(24, { id: 'icon' }), 'circle', { cx: '12', cy: '12', r: '10', fill: 'red' });
    shape(svg(120, { 'aria-hidden': 'true' }), 'circle', { cx: '60', cy: '60', r: '50', fill: 'red' });
    // A chart of 500 bars: cut, and said so.
    const chart = svg(300, { id: 'chart' });
    for (let i = 0; i < 500; i++) shape(chart, 'rect', { x: String(i * 0.6), y: '0', width: '0.5', height: String(10 + (i % 200)), fill: '#1e63d6' });
  });
  const snap = await fx.snapshot();
  const o = await fx.observed();
  const legend = snap.elements.filter((e) => e.shape && e.passive);
  expect(legend.map((e) => ({ name: e.name, shape: e.shape }))).toEqual(
    expect.arrayContaining([
      // About the same size: no size is said of either (a text's box says nothing of its size).
      { name: '', shape: { kind: 'ellipse', fill: 'orange' } },
      { name: 'Legend box', shape: { kind: 'square', stroke: 'navy' } },
      { name: 'Sales by region', shape: { kind: 'text', fill: 'black' } },
    ]),
  );
  for (const e of legend) expect(offered(o, e.ref), e.name).toBe(false);
  // The label's words are the shape's name, not a loose page text as well.
  expect(snap.texts.map((t) => t.text)).not.toContain('Sales by region');
  expect(snap.elements.filter((e) => e.shape?.kind === 'circle' && e.shape.fill === 'red').map((e) => e.shape!.size)).toEqual(['large', 'small']);
  expect(snap.blindSpots).toContain('svg_shapes_truncated');
  expect(snap.elements.filter((e) => e.shape && e.shape.fill === 'blue' && e.shape.kind === 'rect').length).toBeLessThanOrEqual(60);
  expect(await fx.look()).toMatch(/shapes: e\d+ ellipse orange · e\d+ square "Legend box" outline navy · e\d+ text "Sales by region" black/);
});

test('sliders and spinbuttons carry their bounds: native inputs and ARIA widgets', async ({ steward, sites, openPanel, tabIdOf }) => {
  const lab = sites.urls.lab;
  const native = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/native-range');
  const brightness = named(await native.snapshot(), 'Brightness');
  expect(brightness).toMatchObject({ role: 'slider', value: '50', range: { min: 0, max: 100, step: 5 } });
  expect(await native.look()).toMatch(new RegExp(`${brightness.ref} slider "Brightness"[^\\n]* =50 \\[0–100 step 5[,\\]]`));

  const spinner = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/jq-spinner');
  expect(named(await spinner.snapshot(), 'Guests', 'spinbutton')).toMatchObject({ value: '2', range: { min: 1, max: 8 } });

  const number = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/native-number');
  expect(named(await number.snapshot(), 'Tickets')).toMatchObject({ role: 'spinbutton', value: '1', range: { min: 1, max: 8 } });

  const mui = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/mui-slider');
  expect(named(await mui.snapshot(), 'Volume', 'slider')).toMatchObject({ value: '50', range: { min: 0, max: 100, step: 10 } });
});

test('popups come out under the control that opened them: an autocomplete list after typing, a date grid after a click, a MUI listbox and a menu', async ({ steward, sites, openPanel, tabIdOf }) => {
  const lab = sites.urls.lab;

  // jQuery UI autocomplete: a <ul> appended to <body>, shown after a debounce.
  const jq = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/jq-autocomplete');
  const city = named(await jq.snapshot(), 'City');
  expect((await jq.run('dom.type', { ref: city.ref, text: 'Li' })).error).toBeUndefined();
  await expect(jq.page.locator('.ui-autocomplete')).toBeVisible();
  let snap = await jq.snapshot();
  const list = snap.containers!.find((c) => c.openedBy === city.ref)!;
  expect(list).toMatchObject({ role: 'list', rows: 5 });
  // Its suggestions are offered to pick: options Steward inferred (the page's pointer cursor on them), each with a ref.
  const lisbon = snap.elements.find((e) => e.container?.ref === list.ref && e.name === 'Lisbon, Portugal')!;
  expect(lisbon).toMatchObject({ role: 'option', inferred: { evidence: expect.arrayContaining(['cursor_pointer']) } });
  // Right under the field's line, which says what opened it.
  expect(await jq.look()).toMatch(new RegExp(`${city.ref} textbox "City"[^\\n]* =Li[^\\n]*\\n↳ ${list.ref} list[^\\n:]*:[^\\n]*${lisbon.ref}\\b[^\\n]*"Lisbon, Portugal"`));

  // jQuery UI datepicker: its grid (a table in a div appended to <body>) under the field clicked.
  const dp = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/jq-datepicker?month=2026-11');
  const date = named(await dp.snapshot(), 'Date');
  expect((await dp.run('dom.click', { ref: date.ref })).error).toBeUndefined();
  await expect(dp.page.locator('#ui-datepicker-div')).toBeVisible();
  snap = await dp.snapshot();
  const grid = snap.containers!.find((c) => c.openedBy === date.ref)!;
  expect(grid).toMatchObject({ role: 'table', columns: ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'] });
  expect(snap.elements.filter((e) => e.container?.ref === grid.ref && e.role === 'link')).toHaveLength(30);
  // Under the field's own line, or naming the field when it is not there.
  expect(await dp.look()).toMatch(new RegExp(`${date.ref} textbox "Date"[^\\n]*\\n↳ (?:table ${grid.ref}|${grid.ref} table|table) —`));

  // MUI autocomplete: aria-controls names its listbox (a portal on <body>), and it opened after typing.
  const mui = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/mui-autocomplete');
  const country = (await mui.snapshot()).elements.find((e) => e.role === 'combobox')!;
  expect((await mui.run('dom.type', { ref: country.ref, text: 'Por' })).error).toBeUndefined();
  await expect(mui.page.getByRole('option', { name: 'Portugal' })).toBeVisible();
  snap = await mui.snapshot();
  const listbox = snap.containers!.find((c) => c.role === 'listbox')!;
  expect(snap.elements.find((e) => e.ref === country.ref)!.controls).toBe(listbox.ref);
  expect(listbox.openedBy).toBe(country.ref);
  expect(await mui.look()).toMatch(new RegExp(`${country.ref} combobox[^\\n]*\\n↳ (?:listbox ${listbox.ref}|${listbox.ref} listbox|listbox) "Country"[^\\n:]*: e\\d+ option[^\\n]*"Portugal"`));

  // A menu opened by an icon-only button.
  const menu = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/mui-menu');
  const opener = (await menu.snapshot()).elements.find((e) => e.role === 'button')!;
  expect((await menu.run('dom.click', { ref: opener.ref })).error).toBeUndefined();
  await expect(menu.page.getByRole('menuitem', { name: 'Archive' })).toBeVisible();
  snap = await menu.snapshot();
  expect(snap.containers!.find((c) => c.role === 'menu')).toMatchObject({ rows: 3, openedBy: opener.ref });

  // A jQuery UI dialog: a container of its own, under the button that opened it, and what it covers names it.
  const dialog = await agentOn({ steward, openPanel, tabIdOf }, lab, '/widgets/jq-dialog');
  const review = named(await dialog.snapshot(), 'Review terms');
  expect((await dialog.run('dom.click', { ref: review.ref })).error).toBeUndefined();
  await expect(dialog.page.getByRole('dialog')).toBeVisible();
  snap = await dialog.snapshot();
  expect(snap.containers!.find((c) => c.role === 'dialog')).toMatchObject({ name: 'Terms of sale', rows: 1, openedBy: review.ref });
  expect(named(snap, 'Continue').coveredBy).toMatchObject({ role: 'dialog', name: 'Terms of sale', ref: named(snap, 'Close').ref });
});
