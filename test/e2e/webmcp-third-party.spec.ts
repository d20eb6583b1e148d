import { chromium, type Page, type Worker } from '@playwright/test';
import { CHROMIUM_FLAGS, NATIVE_WEBMCP_FLAG } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { mint, observe, submitApproving } from '../harness/pipeline-helpers.ts';
import { byName, keepOffline, navigatedFrom, parsedSchema, plainRun, viewOf, type DemoScenario, type ListedTool, type ScenarioTruth } from '../harness/third-party-run.ts';
import { thirdPartyAvailability } from '../../sites/third-party/serve.ts';
import { WEBMCP_TOOLS, thirdPartyPath } from '../../sites/third-party/upstream.ts';

/**
 * Public WebMCP demo pages written by others (sites/third-party/, served unchanged by the lab from
 * upstream's commit), walked three times: in a plain Chromium with native WebMCP and no extension
 * (the ground truth: what the page itself lists and answers), then through Steward with Chromium's
 * native WebMCP and with Steward's polyfill. Steward must list the same tools with the same schemas
 * as the plain page, and each call through its pipeline must end as it did there: the same answer,
 * the same page, the same visible state.
 */

const demo = (path: string) => thirdPartyPath(WEBMCP_TOOLS, path);
const text = (selector: string) => `document.querySelector(${JSON.stringify(selector)})?.innerText ?? null`;

/** A reservation the bistro accepts (a date far ahead: the page refuses past dates). */
const RESERVATION = { name: 'Ada Lovelace', phone: '555-010-2030', date: '2030-06-14', time: '19:30', guests: '4', seating: 'Terrace', requests: 'A window table' };

const SCENARIOS: DemoScenario[] = [
  {
    name: 'pizza maker (imperative tools registered with exposedTo)',
    start: demo('demos/pizza-maker/index.html'),
    probes: {
      size: text('#size-text'),
      toppings: `[...document.querySelectorAll('.topping')].map((t) => t.dataset.emoji + '|' + t.dataset.size).join(' ')`,
      cheese: `document.getElementById('cheese-layer').style.display`,
      crust: `document.documentElement.style.getPropertyValue('--crust')`,
    },
    calls: [
      { tool: 'set_pizza_size', input: { number_of_persons: 5 } },
      { tool: 'set_pizza_style', input: { style: 'Pesto' } },
      { tool: 'toggle_layer', input: { layer: 'cheese-layer', action: 'add' } },
      { tool: 'add_topping', input: { topping: '🍄', size: 'Small', count: 3 } },
      { tool: 'remove_topping', input: { topping: '🍄' } },
      { tool: 'manage_pizza', input: { action: 'remove_last' } },
      { tool: 'share_pizza', input: {} },
    ],
  },
  {
    name: 'doors (forms that navigate, and a tool that unregisters itself while it runs)',
    start: demo('demos/doors/index.html'),
    probes: { title: 'document.title', heading: text('h1'), speech: text('#speech'), status: text('#status') },
    calls: [
      { tool: 'openDoor2', input: {}, navigates: true },
      { tool: 'dance', input: {} },
      { tool: 'returnToHallway', input: {}, navigates: true },
      { tool: 'openDoor3', input: {}, navigates: true },
      { tool: 'castLight', input: {} },
      { tool: 'returnToHallway', input: {}, navigates: true },
      { tool: 'openDoor1', input: {}, navigates: true },
      { tool: 'talk', input: { choice: 'Give me a gift' } },
    ],
  },
  {
    name: 'order tracking (declarative GET forms with a select and a text field)',
    start: demo('demos/order-tracking/index.html'),
    probes: { title: 'document.title', heading: text('h1'), answer: `JSON.parse(document.querySelector('script[type="application/ld+json"]')?.textContent ?? 'null')?.text ?? null` },
    calls: [
      { tool: 'get_order_status', input: { timeframe: 'last_30_days' }, navigates: true },
      { tool: 'initiate_return', input: { order_id: 'ORD123', reason: 'wrong_size' }, navigates: true },
    ],
  },
  // Not `?imperative`: on this Chromium (156) the page itself throws at load, in the plain run too.
  // It builds its imperative tool from `JSON.parse(tool.inputSchema)` of the declarative tool, and
  // Chromium 156's getTools() gives inputSchema as an object ("[object Object]" is not valid JSON),
  // where the WebMCP spec, its web-platform-tests and Steward's polyfill give JSON text; so the
  // plain run lists no tool, and the polyfill, where the page works as its authors meant, lists one.
  // What that mode found in the polyfill (a form that stops offering its tool keeps the name until
  // the forms' observer runs) is checked on its own below.
  ...(['toolautosubmit', 'crossdocument&toolautosubmit'] as const).map((mode): DemoScenario => ({
    name: `French bistro, ?${mode} (a form answered through respondWith)`,
    start: demo(`demos/french-bistro/index.html?${mode}`),
    probes: {
      title: 'document.title',
      dialog: `document.getElementById('bookingDialog')?.open ?? null`,
      details: text('#modalDetails'),
      invalid: `[...document.querySelectorAll('.invalid')].map((e) => e.name).join(' ')`,
    },
    calls:
      mode === 'toolautosubmit'
        ? [
            { tool: 'book_table_le_petit_bistro', input: { ...RESERVATION, phone: '555-01' } },
            { tool: 'book_table_le_petit_bistro', input: RESERVATION },
          ]
        : [{ tool: 'book_table_le_petit_bistro', input: RESERVATION, navigates: mode.startsWith('crossdocument') }],
  })),
];

const available = thirdPartyAvailability();

/** The plain run of each scenario, once per worker (it does not depend on Steward's mode). */
const truths = new Map<string, Promise<ScenarioTruth>>();
const truthOf = (labUrl: string, scenario: DemoScenario) => {
  const key = `${labUrl} ${scenario.name}`;
  if (!truths.has(key)) truths.set(key, plainRun(labUrl, scenario));
  return truths.get(key)!;
};

type RegistryFrame = { tabId: number; frameId: number; url: string; api: string; tools: Array<{ name: string; description: string; inputSchema: unknown }> };

/** What Steward's registry holds for the tab's top document at this URL (undefined until that document reported). */
async function registryTop(worker: Worker, tabId: number, url: string): Promise<RegistryFrame | undefined> {
  const frames = (await worker.evaluate(async () => (await chrome.storage.session.get('webmcp.frames'))['webmcp.frames'])) as RegistryFrame[] | undefined;
  return frames?.find((f) => f.tabId === tabId && f.frameId === 0 && f.url === url);
}

/**
 * Waits until Steward lists, for the tab's current document, the tools the plain page listed, with
 * the same descriptions and schemas, through the WebMCP the test asked for (native or Steward's polyfill).
 */
async function expectSameTools(worker: Worker, tabId: number, page: Page, api: 'native' | 'polyfill', plain: ListedTool[], when: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const top = await registryTop(worker, tabId, page.url());
        return top && { api: top.api, tools: byName(top.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: parsedSchema(t.inputSchema) }))) };
      },
      { message: `Steward lists the tools the plain page lists ${when}`, timeout: 15_000 },
    )
    .toEqual({ api, tools: plain });
}

for (const nativeWebMcp of [true, false]) {
  test.describe(nativeWebMcp ? 'third-party demos, native WebMCP' : 'third-party demos, Steward’s polyfill', () => {
    test.use({ nativeWebMcp });
    const api = nativeWebMcp ? 'native' : 'polyfill';
    test.skip(!available.ok, available.ok ? '' : `the upstream pages cannot be served here: ${available.reason}`);

    for (const [n, scenario] of SCENARIOS.entries()) {
      test(`${scenario.name}: the tools a plain Chromium lists, and the same outcome per call`, async ({ steward, sites, openPanel, tabIdOf }) => {
        test.setTimeout(180_000);
        const truth = await truthOf(sites.urls.lab, scenario);
        const lab = new URL(sites.urls.lab).origin;
        const page = await steward.context.newPage();
        await keepOffline(page);
        await page.goto(sites.urls.lab + scenario.start);
        const panel = await openPanel(page);
        const tabId = await tabIdOf(page);
        const toolNames = new Set([truth.opened.tools, ...truth.calls.map((c) => c.tools)].flat().map((t) => t.name));
        const token = await mint(panel, { scope: [...toolNames].map((name) => `webmcp:${name}`), resource_scope: 'page:*', origins: [lab] });

        await expectSameTools(steward.serviceWorker, tabId, page, api, truth.opened.tools, `on ${scenario.start}`);
        expect(await viewOf(page, scenario.probes)).toEqual(truth.opened.view);

        for (const [i, step] of truth.calls.entries()) {
          const { call } = step;
          const where = `after call ${i + 1}, ${call.tool}`;
          // The tool is offered to agents on the tab's current document before it is called.
          await expect.poll(async () => (await observe(panel, tabId)).available_actions, { message: `${call.tool} is offered before call ${i + 1}` }).toContain(call.tool);
          const { resource } = await observe(panel, tabId);
          const before = page.url();
          const outcome = await submitApproving(panel, { token, tabId, request: { action: call.tool, resource, input: call.input, idempotency_key: `e2e-third-party-${n}-${i}-${call.tool}` } });
          if (call.navigates) await navigatedFrom(page, before);
          const shown = call.navigates
            ? `→ ${new URL(page.url()).pathname.split('/').pop()}${new URL(page.url()).search}`
            : JSON.stringify((outcome.output as { text?: unknown } | undefined)?.text ?? null);
          console.log(
            `[${nativeWebMcp ? 'native' : 'polyfill'}] ${call.tool} ${JSON.stringify(call.input)}: ${(outcome.execution as { status?: string } | undefined)?.status} ${shown} (plain: ${call.navigates ? step.after.url.split('/').pop() : JSON.stringify(step.result)})`,
          );

          // The same answer as the page gave the plain run: its text, or none for a form that navigated.
          const execution = outcome.execution as { status?: string } | undefined;
          expect(outcome.error, where).toBeUndefined();
          expect(execution?.status, where).toBe('confirmed');
          if (call.navigates) expect(outcome, where).not.toHaveProperty('output');
          else expect((outcome.output as { text?: unknown } | undefined)?.text ?? null, where).toEqual(step.result ?? null);
          expect(step.error, `the plain run's ${call.tool} failed`).toBeUndefined();

          // The same page, showing the same, with the same tools.
          await expect.poll(() => viewOf(page, scenario.probes), { message: `the page ${where}` }).toEqual(step.after);
          await expectSameTools(steward.serviceWorker, tabId, page, api, step.tools, where);
        }
      });
    }
  });
}

/**
 * In Chromium a form that stops offering its tool (its `toolname` removed, the form taken out)
 * lets go of the name at once: the same script may list the page's tools without it, or register
 * an imperative tool of that name (the French bistro's `?imperative` mode does). A tool registered
 * while a form still offers the name is refused, in both. Run on the lab's index in a plain
 * Chromium with native WebMCP, then with Steward's polyfill: the same story, error names and all.
 */
const RELEASE_STORY = `(async () => {
  const mc = document.modelContext;
  const story = [];
  const tick = () => new Promise((r) => setTimeout(r, 200));
  const names = async () => (await mc.getTools()).map((t) => t.name + ': ' + t.description).join(', ');
  const register = (tool) => mc.registerTool(tool).then(() => story.push(tool.name + ' registered'), (e) => story.push(tool.name + ' refused: ' + e.name));
  const form = (name) => {
    const f = document.createElement('form');
    f.setAttribute('toolname', name);
    f.setAttribute('tooldescription', name + ' form');
    f.innerHTML = '<input name="who">';
    document.body.append(f);
    return f;
  };
  const book = form('book');
  const gone = form('gone');
  const busy = form('busy');
  const listed = form('listed');
  await tick();
  story.push('listed: ' + await names());
  book.removeAttribute('toolname');
  await register({ name: 'book', description: 'book imperatively', execute: () => 'ok' });
  gone.remove();
  await register({ name: 'gone', description: 'gone imperatively', execute: () => 'ok' });
  await register({ name: 'busy', description: 'busy imperatively', execute: () => 'ok' });
  listed.removeAttribute('toolname');
  story.push('right after removal: ' + await names());
  await tick();
  story.push('later: ' + await names());
  return story;
})()`;

test.describe('a form that stops offering its tool, Steward’s polyfill', () => {
  test.use({ nativeWebMcp: false });
  test('lets go of the tool’s name at once, as in a plain Chromium', async ({ steward, sites }) => {
    const plain = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_FLAGS, NATIVE_WEBMCP_FLAG] });
    let truth: unknown;
    try {
      const page = await plain.newPage();
      await page.goto(`${sites.urls.lab}/`);
      truth = await page.evaluate(RELEASE_STORY);
    } finally {
      await plain.close();
    }
    expect(truth).toContain('book registered');
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.lab}/`);
    expect(await page.evaluate(() => (document as unknown as { modelContext?: { __isWebMCPPolyfill?: boolean } }).modelContext?.__isWebMCPPolyfill)).toBe(true);
    expect(await page.evaluate(RELEASE_STORY)).toEqual(truth);
  });
});
