import type { Page, Worker } from '@playwright/test';
import { answersFor, withEpisode } from '../../sites/lab/widgets/tasks.ts';
import type { PageSnapshot, SnapshotElement } from '../../src/protocol/snapshot.ts';
import { test, expect } from '../harness/fixtures.ts';
import { data, mint, observe, submit } from '../harness/pipeline-helpers.ts';

/**
 * Controls that are not semantic HTML (issue 26), found from what the page's scripts and styles
 * make them do, in real Chromium through the real extension: the main world records listeners
 * before the page's scripts run, the walker infers the role, says it inferred it and from what;
 * a hostile page that strips or forges Steward's marks gets no fewer approvals; CSS `:hover`
 * menus open for Steward's pointer.
 */

type Result<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

async function snapshot(serviceWorker: Worker, tabId: number): Promise<PageSnapshot> {
  const result = (await serviceWorker.evaluate(
    (tab) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number, o: object) => Promise<unknown> } }).stewardObservation.observeTab(tab, {}),
    tabId,
  )) as Result<PageSnapshot>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

/** The page side's own answer (content/query), not the worker's merged snapshot: what the walker reads now. */
async function pageSide(serviceWorker: Worker, tabId: number, name: string): Promise<SnapshotElement[]> {
  const reply = (await serviceWorker.evaluate(([tab, n]) => chrome.tabs.sendMessage(tab, { type: 'content/query', query: { name: n } }, { frameId: 0 }), [tabId, name] as const)) as Result<{
    elements: SnapshotElement[];
  }>;
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.data.elements;
}

const named = (s: PageSnapshot, name: string): SnapshotElement => {
  const found = s.elements.filter((e) => e.name === name);
  expect(found, `exactly one element named "${name}" in ${s.elements.map((e) => `${e.role} "${e.name}"`).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

async function openWidget(page: Page, labUrl: string, slug: string, episode: string): Promise<void> {
  await page.goto(`${labUrl}${withEpisode(`/widgets/${slug}`, episode)}`);
  await page.waitForLoadState('load');
}

test('clickable spans and divs get refs with the role Steward inferred, its evidence, and their names', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  const look = async (slug: string) => {
    await openWidget(page, sites.urls.lab, slug, `inferred-${slug}`);
    return snapshot(steward.serviceWorker, await tabIdOf(page));
  };

  // <span>s with click listeners used as links.
  const links = await look('v-span-link');
  for (const title of ['Repairing a bike chain', 'Choosing winter tyres', 'Bleeding hydraulic brakes']) {
    expect(named(links, title)).toMatchObject({ tag: 'span', role: 'link', visibility: 'visible', inferred: { evidence: expect.arrayContaining(['click_listener', 'cursor_pointer']) } });
  }
  // The "· 4 min read" notes beside them have neither listener nor cursor: page text, not controls.
  expect(links.elements.some((e) => e.name.includes('min read'))).toBe(false);
  expect(links.texts.some((t) => t.text.includes('4 min read'))).toBe(true);

  // <div>s used as tabs: a group of three, the shown one selected.
  const tabs = await look('v-div-tabs');
  expect(named(tabs, 'Description')).toMatchObject({ tag: 'div', role: 'tab', states: ['selected'], inferred: { evidence: expect.arrayContaining(['click_listener', 'class_name']) } });
  expect(named(tabs, 'Reviews')).toMatchObject({ role: 'tab', states: [] });

  // Collapsible section headers.
  const sections = await look('v-collapsible');
  for (const header of ['Features', 'Warranty', 'Downloads'])
    expect(named(sections, header)).toMatchObject({ tag: 'div', role: 'button', inferred: { evidence: expect.arrayContaining(['click_listener']) } });

  // Tree nodes in nested lists; the closed branches' nodes are there, hidden.
  const tree = await look('v-tree');
  expect(named(tree, 'Documents')).toMatchObject({ role: 'treeitem', visibility: 'visible', inferred: { evidence: expect.arrayContaining(['click_listener', 'class_name']) } });
  expect(named(tree, 'invoice-2026-11.pdf')).toMatchObject({ role: 'treeitem', visibility: 'hidden' });
  expect(named(tree, 'lease.pdf').role).toBe('treeitem');

  // Inbox rows named by what they show, sender and subject apart.
  const inbox = await look('v-inbox');
  const omar = inbox.elements.find((e) => e.name.startsWith('Omar Haddad Q3 budget draft'));
  expect(omar).toMatchObject({ tag: 'div', role: 'button', visibility: 'visible', inferred: { evidence: expect.arrayContaining(['click_listener', 'cursor_pointer']) } });

  // Icon-only openers: a ref each, no name (their row tells which), confidence from listener and cursor together.
  const menus = await look('v-icon-menu');
  const openers = menus.elements.filter((e) => e.tag === 'div' && e.name === '' && e.visibility === 'visible');
  expect(openers).toHaveLength(3);
  for (const o of openers) expect(o).toMatchObject({ role: 'button', inferred: { evidence: expect.arrayContaining(['click_listener', 'cursor_pointer']) } });
  expect(openers[0]!.inferred!.confidence).toBeGreaterThan(0.7);
  // Their menus' items, closed for now, are controls too.
  expect(menus.elements.filter((e) => e.name === 'Duplicate' && e.role === 'button' && e.inferred)).toHaveLength(3);
});

test('containers whose listeners serve their items are not controls; what they hold is', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openWidget(page, sites.urls.lab, 'v-pointer-sort', 'inferred-sort');
  const sort = await snapshot(steward.serviceWorker, await tabIdOf(page));
  // The <ul> listens for pointerdown on behalf of its grips; the grips (grab cursor) are what a person drags.
  expect(sort.elements.some((e) => e.tag === 'ul' || e.tag === 'body' || e.tag === 'html')).toBe(false);
  const grips = sort.elements.filter((e) => e.tag === 'span');
  expect(grips).toHaveLength(5);
  for (const g of grips) expect(g.inferred?.evidence).toContain('cursor_grab');
  // Its rows, each holding a grip, are where a dragged row drops: named by their text, not the grip's.
  const rows = sort.elements.filter((e) => e.tag === 'li');
  expect(rows).toHaveLength(5);
  for (const r of rows) expect(r).toMatchObject({ role: 'region', inferred: { evidence: ['grip_inside'] } });
  expect(named(sort, 'Apples')).toMatchObject({ tag: 'li' });

  // HTML5 drag and drop: draggable cards, and the columns they are dropped on (named by their headings).
  await openWidget(page, sites.urls.lab, 'v-drag-drop', 'inferred-board');
  const board = await snapshot(steward.serviceWorker, await tabIdOf(page));
  expect(named(board, 'Fix login bug')).toMatchObject({ role: 'button', inferred: { evidence: expect.arrayContaining(['drag_listener', 'draggable']) } });
  expect(named(board, 'Done')).toMatchObject({ role: 'region', inferred: { evidence: ['drop_listener'] } });
  expect(named(board, 'To do')).toMatchObject({ role: 'region' });
  // jQuery UI's droppable bin has no listener of its own (the library's manager handles drops): its class says it.
  await openWidget(page, sites.urls.lab, 'jq-draggable', 'inferred-bin');
  const bin = await snapshot(steward.serviceWorker, await tabIdOf(page));
  expect(named(bin, 'Archive')).toMatchObject({ role: 'region', inferred: { evidence: ['drop_class'] } });

  // A component library: jQuery UI's slider handle is a focusable <span> without a role.
  await openWidget(page, sites.urls.lab, 'jq-slider', 'inferred-slider');
  const slider = await snapshot(steward.serviceWorker, await tabIdOf(page));
  const handle = slider.elements.find((e) => e.tag === 'span' && e.role === 'slider');
  expect(handle?.inferred?.evidence).toEqual(expect.arrayContaining(['key_listener', 'tabindex', 'class_name']));
  // …and its date picker's Prev / Next are <a>s without an href, live through their listeners.
  await openWidget(page, sites.urls.lab, 'jq-datepicker', 'inferred-date');
  await page.getByLabel('Date').click();
  const picker = await snapshot(steward.serviceWorker, await tabIdOf(page));
  expect(named(picker, 'Next')).toMatchObject({ tag: 'a', role: 'button', visibility: 'visible', inferred: { evidence: ['click_listener'] } });
});

test('a listener added after the first observation is seen by the next, incrementally', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await openWidget(page, sites.urls.lab, 'v-span-link', 'inferred-late');
  const tabId = await tabIdOf(page);
  const first = await snapshot(steward.serviceWorker, tabId);
  expect(first.elements.some((e) => e.name === 'Workshop notes')).toBe(false);

  await page.evaluate(() => document.querySelector('h1')!.addEventListener('click', () => undefined));
  const second = await snapshot(steward.serviceWorker, tabId);
  expect(second.timing?.mode).toBe('incremental');
  expect(named(second, 'Workshop notes')).toMatchObject({ tag: 'h1', role: 'button', inferred: { evidence: ['click_listener'] } });
  // The heading's text is the control's name now, not a heading of the page as well.
  expect(second.texts.some((t) => t.text === 'Workshop notes')).toBe(false);
  // The refs of everything else stayed.
  expect(named(second, 'Choosing winter tyres').ref).toBe(named(first, 'Choosing winter tyres').ref);
});

interface Observed {
  resource: { type: string; id: string };
  elements: Array<{ ref: string; role: string; name: string; visibility: string; inferred?: { evidence: string[] } }>;
}

async function agent(fx: { openPanel: (p: Page) => Promise<Page>; tabIdOf: (p: Page) => Promise<number> }, page: Page, labUrl: string) {
  const panel = await fx.openPanel(page);
  const tabId = await fx.tabIdOf(page);
  const token = await mint(panel, { scope: ['dom:*'], resource_scope: '*', origins: [new URL(labUrl).origin] });
  const look = async () => (await observe(panel, tabId)) as unknown as Observed;
  let n = 0;
  const run = async (action: string, input: Record<string, unknown>) => {
    const o = await look();
    const r = await data(submit(panel, { token, tabId, request: { action, resource: o.resource, input, idempotency_key: `e2e-inferred-${Date.now()}-${++n}` }, wait_for_approval: false }));
    return r.result as { error?: { code: string; details?: Record<string, unknown> }; execution?: { status: string } };
  };
  return { look, run };
}

test('a hostile page that strips Steward’s marks, hides its listeners or forges marks gets no fewer approvals', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  const episode = 'inferred-hostile';
  await openWidget(page, sites.urls.lab, 'v-span-link', episode);
  const fx = await agent({ openPanel, tabIdOf }, page, sites.urls.lab);
  const honest = await fx.look();
  const brakes = honest.elements.find((e) => e.name === 'Bleeding hydraulic brakes')!;
  expect(brakes.inferred?.evidence).toContain('click_listener');
  expect((await fx.run('dom.click', { ref: brakes.ref })).error?.code).toBe('APPROVAL_REQUIRED');

  await page.evaluate(() => {
    // Strip every mark Steward wrote, and every one it writes, as soon as it is written.
    for (const el of document.querySelectorAll('[data-steward-on]')) el.removeAttribute('data-steward-on');
    new MutationObserver((records) => {
      for (const r of records) (r.target as Element).removeAttribute('data-steward-on');
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-steward-on'] });
    // A listener registered with a native addEventListener Steward never wrapped (a fresh frame's).
    const frame = document.createElement('iframe');
    frame.style.display = 'none';
    document.body.append(frame);
    const nativeAdd = (frame.contentWindow as unknown as typeof globalThis).EventTarget.prototype.addEventListener;
    const sneaky = document.createElement('span');
    sneaky.className = 'link';
    sneaky.textContent = 'Archive every article';
    nativeAdd.call(sneaky, 'click', () => (window as unknown as { sendAnswer: (a: unknown) => void }).sendAnswer({ opened: 'archived-all' }));
    document.querySelector('h1')!.after(sneaky);
    // Forged marks: on plain text, and junk.
    const forged = document.createElement('p');
    forged.textContent = 'Forged control';
    forged.setAttribute('data-steward-on', 'click key');
    const junk = document.createElement('p');
    junk.textContent = 'Junk mark';
    junk.setAttribute('data-steward-on', 'clickety "drop table"');
    document.querySelector('.page')!.append(forged, junk);
  });
  // What the page side reads now: its listener mark is gone; its pointer cursor still says it is a control.
  const [read] = await pageSide(steward.serviceWorker, await tabIdOf(page), 'Bleeding hydraulic brakes');
  expect(read?.inferred?.evidence).not.toContain('click_listener');
  expect(read?.inferred?.evidence).toContain('cursor_pointer');
  const hostile = await fx.look();
  const stripped = hostile.elements.find((e) => e.name === 'Bleeding hydraulic brakes')!;
  expect(stripped.ref).toBe(brakes.ref);
  expect(stripped.inferred).toBeDefined();
  const sneaky = hostile.elements.find((e) => e.name === 'Archive every article');
  expect(sneaky?.inferred?.evidence).toEqual(expect.arrayContaining(['cursor_pointer']));
  const forged = hostile.elements.find((e) => e.name === 'Forged control');
  expect(forged).toMatchObject({ role: 'button', inferred: { evidence: ['click_listener', 'key_listener'] } });
  // A value Steward cannot read is no mark.
  expect(hostile.elements.some((e) => e.name === 'Junk mark')).toBe(false);

  for (const target of [stripped, sneaky!, forged!]) {
    const r = await fx.run('dom.click', { ref: target.ref });
    expect(r.error?.code, target.name).toBe('APPROVAL_REQUIRED');
  }
  expect(await answersFor(sites.urls.lab, episode)).toEqual([]);
});

test('a menu only CSS :hover opens is offered a hover; after it, its items are visible and clickable', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  const episode = 'inferred-hover-css';
  await openWidget(page, sites.urls.lab, 'v-hover-menu', episode);
  const fx = await agent({ openPanel, tabIdOf }, page, sites.urls.lab);
  const before = await fx.look();
  const products = before.elements.find((e) => e.name === 'Products')!;
  expect(products.inferred?.evidence).toContain('hover_style');
  expect(before.elements.find((e) => e.name === 'Tablets')).toMatchObject({ role: 'link', visibility: 'hidden' });

  // Hovering is read-only: no approval.
  const hovered = await fx.run('dom.hover', { ref: products.ref });
  expect(hovered.error).toBeUndefined();
  expect(hovered.execution?.status).toBe('confirmed');
  await expect(page.getByRole('link', { name: 'Tablets' })).toBeVisible();
  const after = await fx.look();
  const tablets = after.elements.find((e) => e.name === 'Tablets')!;
  expect(tablets.visibility).toBe('visible');
  // The JS menu beside it stays shut: the emulated hover is only where the pointer rests.
  expect(after.elements.find((e) => e.name === 'Returns')?.visibility).toBe('hidden');

  const clicked = await fx.run('dom.click', { ref: tablets.ref });
  expect(clicked.error).toBeUndefined();
  await expect.poll(async () => (await answersFor(sites.urls.lab, episode)).map((a) => a.answer)).toEqual([{ menu: 'Products', item: 'Tablets' }]);

  // Moving on (hovering the JS menu) takes the emulated hover off the CSS one.
  const support = after.elements.find((e) => e.name === 'Support')!;
  expect(support.inferred?.evidence).toContain('hover_listener');
  expect((await fx.run('dom.hover', { ref: support.ref })).error).toBeUndefined();
  await expect(page.getByRole('link', { name: 'Returns' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Tablets' })).toBeHidden();
});
