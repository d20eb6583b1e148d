import type { Page } from '@playwright/test';
import type { PageSnapshot, SnapshotElement } from '../../src/protocol/snapshot.ts';
import { test, expect } from '../harness/fixtures.ts';

/**
 * Page observation on the lab's purpose-built hard pages, in real Chromium through the real
 * extension: the service worker asks the page's content script (observeTab) and validates the reply.
 */

type Result<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

async function observe(steward: { serviceWorker: import('@playwright/test').Worker }, tabId: number, full = false): Promise<PageSnapshot> {
  const result = (await steward.serviceWorker.evaluate(
    ([tab, f]) => (globalThis as unknown as { stewardObservation: { observeTab: (t: number, o: object) => Promise<unknown> } }).stewardObservation.observeTab(tab, { full: f }),
    [tabId, full] as const,
  )) as Result<PageSnapshot>;
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

const byName = (s: PageSnapshot, name: string): SnapshotElement => {
  const found = s.elements.filter((e) => e.name === name);
  expect(found, `exactly one element named "${name}"`).toHaveLength(1);
  return found[0]!;
};

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState('load');
}

test('finds controls inside open, closed, nested and scripted shadow roots with their roles and names', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/shadow`);
  const snap = await observe(steward, await tabIdOf(page));

  expect(byName(snap, 'Open shadow action')).toMatchObject({ role: 'button', scope: 'shadow-open', visibility: 'visible' });
  expect(byName(snap, 'Open shadow note')).toMatchObject({ role: 'textbox', value: 'hello', scope: 'shadow-open' });
  expect(byName(snap, 'Closed shadow action')).toMatchObject({ role: 'button', scope: 'shadow-closed', visibility: 'visible' });
  expect(byName(snap, 'Scripted closed action')).toMatchObject({ role: 'button', scope: 'shadow-closed' });
  expect(byName(snap, 'Nested open link')).toMatchObject({ role: 'link', scope: 'shadow-open' });
  // Slotted light-DOM content belongs to the document and is rendered through the slot.
  expect(byName(snap, 'Slotted light action')).toMatchObject({ role: 'button', scope: 'document', visibility: 'visible' });
  expect(snap.stats.shadowRoots).toBeGreaterThanOrEqual(4);
  expect(snap.blindSpots).not.toContain('closed_shadow_roots_not_visible');

  // Reading order: the closed root's button comes before the slotted one (shadow content at its host).
  expect(byName(snap, 'Closed shadow action').order!).toBeLessThan(byName(snap, 'Slotted light action').order!);
});

test('walks same-origin iframes in-document and names cross-origin ones as blind spots', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/frames`);
  await expect(page.frameLocator('#same-origin-frame').getByRole('button', { name: 'Inner frame action' })).toBeVisible();
  const snap = await observe(steward, await tabIdOf(page));

  const inner = snap.elements.filter((e) => e.name === 'Inner frame action');
  // One in the visible frame, one in the display:none frame.
  expect(inner).toHaveLength(2);
  const shown = inner.find((e) => e.visibility === 'visible');
  expect(shown).toMatchObject({ role: 'button', scope: 'iframe' });
  expect(shown!.framePath).toHaveLength(1);
  expect(inner.find((e) => e !== shown)!.visibility).toBe('hidden');
  const notes = snap.elements.filter((e) => e.name === 'Frame note');
  expect(notes.map((e) => e.visibility).sort()).toEqual(['hidden', 'visible']);
  expect(notes[0]).toMatchObject({ role: 'textbox', scope: 'iframe', framePath: shown!.framePath });
  expect(byName(snap, 'Srcdoc frame action')).toMatchObject({ role: 'button', scope: 'iframe', visibility: 'visible' });
  expect(byName(snap, 'Top document action')).toMatchObject({ scope: 'document', visibility: 'visible' });

  // The iframe's box is translated into top-page coordinates.
  const frameBox = await page.locator('#same-origin-frame').boundingBox();
  expect(shown!.box!.x).toBeGreaterThanOrEqual(Math.floor(frameBox!.x));
  expect(shown!.box!.y).toBeGreaterThanOrEqual(Math.floor(frameBox!.y));

  expect(snap.blindSpots).toContain('cross_origin_iframe');
  expect(snap.stats.iframesSkipped).toBe(1);
});

test('marks hidden, covered, offscreen and zero-size controls and offers none of them as visible', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/visibility`);
  const snap = await observe(steward, await tabIdOf(page));

  expect(byName(snap, 'Visible action').visibility).toBe('visible');
  for (const name of ['Display none action', 'Visibility hidden action', 'Hidden attribute action', 'Aria hidden action', 'Inert action', 'Inside closed details action']) {
    expect(byName(snap, name).visibility, name).toBe('hidden');
  }
  expect(byName(snap, 'Covered action').visibility).toBe('covered');
  expect(byName(snap, 'Offscreen action').visibility).toBe('offscreen');
  expect(byName(snap, 'Zero size action').visibility).toBe('zero_size');
  // Below the fold is reachable by scrolling: visible, not offscreen.
  expect(byName(snap, 'Below the fold action').visibility).toBe('visible');
  expect(byName(snap, 'Disabled action')).toMatchObject({ visibility: 'visible', states: expect.arrayContaining(['disabled']) });
  expect(byName(snap, 'More options')).toMatchObject({ role: 'button', states: expect.arrayContaining(['collapsed']) });
  expect(snap.stats.hidden).toBe(snap.elements.filter((e) => e.visibility !== 'visible').length);

  // Removing the overlay uncovers the button on the next (incremental) observation.
  await page.evaluate(() => document.getElementById('overlay')!.remove());
  const after = await observe(steward, await tabIdOf(page));
  expect(after.timing?.mode).toBe('incremental');
  expect(byName(after, 'Covered action').visibility).toBe('visible');
  // Opening the details shows what was inside.
  await page.getByText('More options').click();
  const opened = await observe(steward, await tabIdOf(page));
  expect(byName(opened, 'Inside closed details action').visibility).toBe('visible');
  expect(byName(opened, 'More options').states).toContain('expanded');
});

test('reports canvas content without a text equivalent, a labelled chart, and a tainted canvas', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/canvas`);
  // The tainting image comes from the other loopback origin; wait until it is drawn.
  await page.waitForFunction(() => {
    try {
      (document.getElementById('tainted-canvas') as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 1, 1);
      return false;
    } catch {
      return true;
    }
  });
  const tabId = await tabIdOf(page);
  const snap = await observe(steward, tabId);
  expect(snap.canvases).toHaveLength(3);
  const [balance, chart, tainted] = snap.canvases;
  expect(balance!.hasTextEquivalent).toBe(false);
  expect(balance!.unreadable).toBeUndefined();
  expect(balance!.pixelHash).toMatch(/^px-[0-9a-f]{8}$/);
  expect(chart).toMatchObject({ hasTextEquivalent: true, label: 'Monthly sales chart: rising from 12 to 31 units' });
  expect(tainted).toMatchObject({ unreadable: true });
  expect(snap.blindSpots).toContain('canvas_pixels_unreadable');

  // The pixels feed change detection: redrawing the balance changes its hash, nothing else does.
  await page.getByRole('button', { name: 'Refresh balance' }).click();
  const after = await observe(steward, tabId);
  expect(after.canvases[0]!.pixelHash).not.toBe(balance!.pixelHash);
  expect(after.canvases[1]!.pixelHash).toBe(chart!.pixelHash);
});

test('a hostile page that patches prototypes, clobbers the document and throws everywhere still yields a snapshot', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await open(page, `${sites.urls.lab}/hostile`);
  // The page really is hostile in its own world…
  expect(await page.evaluate(() => typeof document.createTreeWalker)).toBe('object');
  expect(errors.join('\n')).toContain('hostile page');
  const tabId = await tabIdOf(page);

  // …yet the isolated world reads it through its own prototypes.
  const snap = await observe(steward, tabId);
  expect(byName(snap, 'Still observable')).toMatchObject({ role: 'button', visibility: 'visible' });
  expect(byName(snap, 'Deep action').role).toBe('button');
  expect(byName(snap, 'Send clobbered form').role).toBe('button');
  expect(typeof snap.title).toBe('string');
  expect(snap.title).toContain('Hostile page');
  const huge = snap.elements.find((e) => e.name.startsWith('Huge Huge'))!;
  expect(huge.name.length).toBeLessThanOrEqual(1024);
  // The clobbered form is read through the prototypes: its real method and action, and its fields.
  const form = snap.forms.find((f) => f.action?.endsWith('/hostile/submit'));
  expect(form).toMatchObject({ method: 'post' });
  expect(form!.fieldRefs.length).toBe(5);
  expect(snap.blindSpots).toEqual(expect.arrayContaining(['json_ld_invalid', 'json_ld_too_large']));
  // Names of Object's own are just words: a <constructor> tag is no heading, and microdata
  // properties named constructor / toString are read as written (__proto__ is dropped).
  expect(snap.texts.find((t) => t.text === 'A tag named constructor')).toMatchObject({ text: 'A tag named constructor' });
  expect(snap.texts.some((t) => t.role === 'heading' && t.text.includes('constructor'))).toBe(false);
  const thing = snap.structuredData.find((d) => d.kind === 'microdata' && d.type === 'Thing');
  expect(thing?.data).toEqual({ '@type': 'Thing', constructor: 'Made by hand', toString: 'Plain words' });

  // The content script keeps answering (the page mutates every 50 ms and throws each time).
  for (let i = 0; i < 3; i++) {
    const again = await observe(steward, tabId);
    expect(again.elements.length).toBe(snap.elements.length);
  }
});

test('incremental observation follows changes inside shadow roots, frames, stylesheets, labels and id references', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/frames`);
  await expect(page.frameLocator('#same-origin-frame').getByRole('button', { name: 'Inner frame action' })).toBeVisible();
  const tabId = await tabIdOf(page);
  await observe(steward, tabId);

  await page.evaluate(() => {
    // Inside the same-origin frame.
    const inner = (document.getElementById('same-origin-frame') as HTMLIFrameElement).contentDocument!;
    const added = inner.createElement('button');
    added.textContent = 'Added in frame';
    inner.body.append(added);
    // A shadow root attached after the first observation, with a control inside.
    const host = document.createElement('div');
    document.querySelector('main')!.append(host);
    host.attachShadow({ mode: 'closed' }).innerHTML = '<button>Late closed action</button>';
    // A label pointing at an input that only arrives later; a name from aria-labelledby.
    document.querySelector('main')!.insertAdjacentHTML('beforeend', '<label for="late">Late field</label><span id="lbl">Old name</span><button aria-labelledby="lbl">x</button>');
  });
  await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<input id="late">'));
  const second = await observe(steward, tabId);
  expect(second.timing?.mode).toBe('incremental');
  // Between captures the isolated world's `labels` is the browser's own answer (Steward's label
  // index answers only during one), and the override stays installed instead of being redefined
  // around every capture, which deoptimized every compiled function reading control properties.
  const labelsBetweenCaptures = () =>
    steward.serviceWorker.evaluate(async (tab) => {
      const [injected] = await chrome.scripting.executeScript({
        target: { tabId: tab },
        world: 'ISOLATED',
        func: () => {
          const getter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'labels')?.get;
          const late = document.getElementById('late') as HTMLInputElement;
          return { labels: [...(late.labels ?? [])].map((l) => l.textContent), native: Function.prototype.toString.call(getter).includes('[native code]') };
        },
      });
      return injected!.result;
    }, tabId);
  expect(await labelsBetweenCaptures()).toEqual({ labels: ['Late field'], native: false });
  expect(byName(second, 'Added in frame')).toMatchObject({ scope: 'iframe', visibility: 'visible' });
  expect(byName(second, 'Late closed action')).toMatchObject({ scope: 'shadow-closed' });
  expect(byName(second, 'Late field')).toMatchObject({ role: 'textbox' });
  const labelled = byName(second, 'Old name');

  await page.evaluate(() => {
    document.getElementById('lbl')!.textContent = 'New name';
    const style = document.createElement('style');
    style.textContent = '#top-button { display: none }';
    document.head.append(style);
  });
  const third = await observe(steward, tabId);
  expect(byName(third, 'New name').ref).toBe(labelled.ref);
  expect(await labelsBetweenCaptures()).toEqual({ labels: ['Late field'], native: false });
  expect(byName(third, 'Top document action').visibility).toBe('hidden');
});

test('a text’s landmark follows the page between observations: moved into a navigation, a label that makes it a breadcrumb, a shadow host moved', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/visibility`);
  const tabId = await tabIdOf(page);
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('afterbegin', '<div id="loose"><p>Loose words</p></div><nav id="site-nav"><p>Nav words</p></nav><div id="host"></div>');
    document.getElementById('host')!.attachShadow({ mode: 'open' }).innerHTML = '<p>Shadow words</p>';
  });
  const landmarks = async () => {
    const s = await observe(steward, tabId);
    return Object.fromEntries(['Loose words', 'Nav words', 'Shadow words'].map((t) => [t, s.texts.find((x) => x.text === t)?.landmark ?? 'none']));
  };
  expect(await landmarks()).toEqual({ 'Loose words': 'none', 'Nav words': 'navigation', 'Shadow words': 'none' });
  // Nothing changed: the same answer from what was kept.
  expect(await landmarks()).toEqual({ 'Loose words': 'none', 'Nav words': 'navigation', 'Shadow words': 'none' });
  await page.evaluate(() => {
    const nav = document.getElementById('site-nav')!;
    nav.append(document.querySelector('#loose p')!);
    nav.append(document.getElementById('host')!);
  });
  expect(await landmarks()).toEqual({ 'Loose words': 'navigation', 'Nav words': 'navigation', 'Shadow words': 'navigation' });
  await page.evaluate(() => document.getElementById('site-nav')!.setAttribute('aria-label', 'Breadcrumb'));
  expect(await landmarks()).toEqual({ 'Loose words': 'breadcrumb', 'Nav words': 'breadcrumb', 'Shadow words': 'breadcrumb' });
  await page.evaluate(() =>
    document.body.prepend(
      [...document.querySelectorAll('#site-nav p')].find((p) => p.textContent === 'Loose words')!,
      document.getElementById('host')!,
    ),
  );
  expect(await landmarks()).toEqual({ 'Loose words': 'none', 'Nav words': 'breadcrumb', 'Shadow words': 'none' });
});

test('an agent-contract link added, changed or removed after the first observation is seen by the next one', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/visibility`);
  const tabId = await tabIdOf(page);
  expect((await observe(steward, tabId)).contractHref).toBeUndefined();
  await page.evaluate(() => document.head.insertAdjacentHTML('beforeend', '<link id="contract" rel="agent-contract" href="/contract-a.json">'));
  expect((await observe(steward, tabId)).contractHref).toBe(`${sites.urls.lab}/contract-a.json`);
  expect((await observe(steward, tabId)).contractHref).toBe(`${sites.urls.lab}/contract-a.json`);
  await page.evaluate(() => document.getElementById('contract')!.setAttribute('href', '/contract-b.json'));
  expect((await observe(steward, tabId)).contractHref).toBe(`${sites.urls.lab}/contract-b.json`);
  // Inside an element added to the body (allowed, if unusual).
  await page.evaluate(() => {
    document.getElementById('contract')!.remove();
    document.body.insertAdjacentHTML('beforeend', '<div><link rel="agent-contract" href="/contract-c.json"></div>');
  });
  expect((await observe(steward, tabId)).contractHref).toBe(`${sites.urls.lab}/contract-c.json`);
  await page.evaluate(() => document.querySelector('link[rel=agent-contract]')!.parentElement!.remove());
  expect((await observe(steward, tabId)).contractHref).toBeUndefined();
});

test('names and roles agree with an independent accname implementation (Playwright’s role locators)', async ({ steward, sites, tabIdOf }) => {
  const CHECKED_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'combobox', 'spinbutton', 'searchbox']);
  const page = await steward.context.newPage();
  for (const url of [`${sites.urls.shop}/orders/ORD-1024`, sites.urls.clinic, `${sites.urls.lab}/grid?n=400`, `${sites.urls.lab}/visibility`]) {
    await open(page, url);
    const snap = await observe(steward, await tabIdOf(page));
    // (A <summary> has no ARIA role; Steward calls it a button, Playwright nothing.)
    const checked = snap.elements.filter((e) => e.scope === 'document' && e.visibility === 'visible' && e.name && e.tag !== 'summary' && CHECKED_ROLES.has(e.role)).slice(0, 60);
    expect(checked.length, url).toBeGreaterThan(3);
    for (const e of checked) {
      const found = await page.getByRole(e.role as 'button', { name: e.name, exact: true }).count();
      expect(found, `${url}: ${e.role} "${e.name}"`).toBeGreaterThan(0);
    }
  }
});

test('relative links resolve against the page’s current address, also after history.pushState', async ({ steward, sites, tabIdOf }) => {
  const page = await steward.context.newPage();
  await open(page, `${sites.urls.lab}/visibility`);
  const tabId = await tabIdOf(page);
  await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<a href="next?step=2">Next step</a> <a href="/visibility">Same place</a>'));
  const first = await observe(steward, tabId);
  expect(byName(first, 'Next step').href).toBe(`${sites.urls.lab}/next?step=2`);

  // A single-page app moves to another address: no mutation says so, yet every relative link now goes elsewhere.
  await page.evaluate(() => history.pushState({}, '', '/wizard/account/'));
  const second = await observe(steward, tabId);
  expect(byName(second, 'Next step').href).toBe(`${sites.urls.lab}/wizard/account/next?step=2`);
  expect(byName(second, 'Same place').href).toBe(`${sites.urls.lab}/visibility`);
  expect(byName(second, 'Next step').ref).toBe(byName(first, 'Next step').ref);

  // Full observations read the same targets (kept per raw value and base URL).
  const full = await observe(steward, tabId, true);
  expect(byName(full, 'Next step').href).toBe(`${sites.urls.lab}/wizard/account/next?step=2`);

  // The same inside a same-origin frame, which moves on its own.
  await open(page, `${sites.urls.lab}/frames`);
  const frame = page.frameLocator('#same-origin-frame');
  await expect(frame.getByRole('button', { name: 'Inner frame action' })).toBeVisible();
  const framed = await tabIdOf(page);
  const frameDoc = () => (document.getElementById('same-origin-frame') as HTMLIFrameElement).contentWindow!;
  await page.evaluate(`(${frameDoc})().document.body.insertAdjacentHTML('beforeend', '<a href="step-3">Frame step</a>')`);
  expect(byName(await observe(steward, framed), 'Frame step').href).toBe(`${sites.urls.lab}/frames/step-3`);
  await page.evaluate(`(${frameDoc})().history.pushState({}, '', '/checkout/review/')`);
  expect(byName(await observe(steward, framed), 'Frame step').href).toBe(`${sites.urls.lab}/checkout/review/step-3`);
});
