/**
 * The ground truth for the third-party WebMCP demo pages (sites/third-party/): the same Debian
 * Chromium with its native WebMCP and no extension, driven through the page's own
 * `document.modelContext` as an agent in the browser would. What it records per step (the tools
 * listed, each call's answer, where the tab ended up and what the page shows) is what Steward must
 * reproduce, under native WebMCP and under its polyfill (test/e2e/webmcp-third-party.spec.ts).
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_FLAGS, NATIVE_WEBMCP_FLAG } from './browser.ts';

/** One tool as listed: its name, description and input schema (parsed; "no schema" is the empty object schema). */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

interface DemoCall {
  tool: string;
  input: Record<string, unknown>;
  /** The call submits a form that loads another document: its outcome is where the tab ends up. */
  navigates?: boolean;
}

/** A walk through one demo in one tab: open its first page, then call tools one after another. */
export interface DemoScenario {
  name: string;
  /** Path on the lab of the page the walk starts on. */
  start: string;
  calls: DemoCall[];
  /** What a person sees, as expressions evaluated in the page after each step (values must be JSON). */
  probes: Record<string, string>;
}

/** What the page showed after a step: its URL (path and query) and the probes' values. */
export interface PageView {
  url: string;
  probes: Record<string, unknown>;
}

interface CallTruth {
  call: DemoCall;
  /** The answer of a call that stays on its page, as text (null: the tool answered nothing). */
  result?: string | null;
  /** A call that failed: the error's name and message. */
  error?: string;
  after: PageView;
  /** The tools the page lists once the call is done. */
  tools: ListedTool[];
}

export interface ScenarioTruth {
  opened: { view: PageView; tools: ListedTool[] };
  calls: CallTruth[];
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

/** Chrome gives the schema as a JSON string, the polyfill as an object, and nothing for a tool without one. */
export function parsedSchema(raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') return EMPTY_OBJECT_SCHEMA;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export const byName = (tools: ListedTool[]): ListedTool[] => [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Anything not on this machine's loopback is refused: the tests run offline (web fonts are all the demos ask for). */
export async function keepOffline(page: Page): Promise<void> {
  await page.route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname) && url.protocol.startsWith('http'),
    (route) => route.abort('internetdisconnected'),
  );
}

/** The page's URL as path and query, and the probes' values. */
export async function viewOf(page: Page, probes: Record<string, string>): Promise<PageView> {
  const url = new URL(page.url());
  const values: Record<string, unknown> = {};
  for (const [name, expression] of Object.entries(probes)) values[name] = await page.evaluate(expression);
  return { url: url.pathname + url.search, probes: values };
}

async function listedByPage(page: Page): Promise<ListedTool[]> {
  const raw = await page.evaluate(async () => {
    const mc = (document as unknown as { modelContext: { getTools(): Promise<Array<{ name: string; description: string; inputSchema?: unknown }>> } }).modelContext;
    return (await mc.getTools()).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  });
  return byName(raw.map((t) => ({ name: t.name, description: t.description, inputSchema: parsedSchema(t.inputSchema) })));
}

/** The page's tool list once it stopped changing (two readings 400 ms apart agree). */
async function settledTools(page: Page): Promise<ListedTool[]> {
  let last = JSON.stringify(await listedByPage(page));
  for (let i = 0; i < 25; i++) {
    await page.waitForTimeout(400);
    const now = await listedByPage(page);
    if (JSON.stringify(now) === last) return now;
    last = JSON.stringify(now);
  }
  throw new Error(`the tool list of ${page.url()} never settled`);
}

/** Runs one call through the page's own executeTool, as an in-browser agent would. */
async function callOnPage(page: Page, call: DemoCall): Promise<{ result?: string | null; error?: string }> {
  return page.evaluate(async ({ tool: name, input, navigates }) => {
    const mc = (document as unknown as { modelContext: { getTools(): Promise<Array<{ name: string }>>; executeTool(tool: unknown, input: unknown): Promise<unknown> } }).modelContext;
    const tool = (await mc.getTools()).find((t) => t.name === name);
    if (!tool) return { error: `NotFound: no tool ${name}` };
    const run = mc.executeTool(tool, input).catch((error: unknown) => {
      // Earlier Chrome builds took the input as a JSON string.
      if (error instanceof TypeError && /input/i.test(error.message)) return mc.executeTool(tool, JSON.stringify(input));
      throw error;
    });
    if (navigates) {
      run.catch(() => undefined);
      return {};
    }
    try {
      const result = await run;
      return { result: result === null || result === undefined ? null : typeof result === 'string' ? result : JSON.stringify(result) };
    } catch (error) {
      return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
  }, call);
}

/** Waits until the tab has left `before` and the new document finished loading. */
export async function navigatedFrom(page: Page, before: string): Promise<void> {
  await page.waitForURL((url) => url.href !== before, { timeout: 15_000 });
  await page.waitForLoadState('load');
}

/** One walk through a demo in a plain Chromium with native WebMCP and no extension. */
export async function plainRun(labUrl: string, scenario: DemoScenario): Promise<ScenarioTruth> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_FLAGS, NATIVE_WEBMCP_FLAG] });
  try {
    const page = await browser.newPage();
    await keepOffline(page);
    await page.goto(labUrl + scenario.start);
    const truth: ScenarioTruth = { opened: { tools: await settledTools(page), view: await viewOf(page, scenario.probes) }, calls: [] };
    for (const call of scenario.calls) {
      const before = page.url();
      const answer = await callOnPage(page, call);
      if (call.navigates) await navigatedFrom(page, before);
      const tools = await settledTools(page);
      truth.calls.push({ call, ...answer, after: await viewOf(page, scenario.probes), tools });
    }
    return truth;
  } finally {
    await browser.close();
  }
}
