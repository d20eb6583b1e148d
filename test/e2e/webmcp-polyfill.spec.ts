import { test, expect } from '../harness/fixtures.ts';
import { showView } from '../harness/panel-helpers.ts';

// Chromium without native WebMCP (no NATIVE_WEBMCP_FLAG, browser.ts): no native document.modelContext, so the
// main-world script installs Steward's polyfill (the MCP-B polyfill through @mcp-b/global, with Steward's own methods) and Steward reaches it
// over its private port.
test.use({ nativeWebMcp: false });

test('without native WebMCP, the polyfill exposes the page’s tools to Steward', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.clinic);
  // The polyfill's ModelContext, which marks itself (Chrome's own does not), not @mcp-b/global's MCP server
  // in front of it (Steward removes that: it would serve the tools over postMessage), and no testing shim.
  expect(
    await page.evaluate(() => {
      const mc = (document as unknown as { modelContext?: Record<string, unknown> }).modelContext;
      return {
        polyfill: mc?.__isWebMCPPolyfill,
        constructor: (mc?.constructor as { name?: string } | undefined)?.name,
        server: mc !== undefined && ('__isBrowserMcpServer' in mc || 'connect' in mc || 'registerResource' in mc),
        testingShim: 'modelContextTesting' in navigator,
      };
    }),
  ).toEqual({ polyfill: true, constructor: 'ModelContext', server: false, testingShim: false });
  const panel = await openPanel(page);
  await showView(panel, 'This tab');

  const tool = (name: string) => panel.getByRole('article', { name, exact: true });
  await expect(tool('list_doctors')).toContainText('WebMCP polyfill');
  await expect(tool('list_doctors')).toContainText('read-only');
  await expect(tool('read_patient_messages')).toContainText('untrusted content');
  await expect(tool('cancel_appointment')).toContainText('consequential');
  await expect(tool('book_appointment')).toContainText('form · autosubmit');
  await expect(tool('cancel_appointment').getByRole('button', { name: 'Run' })).toBeDisabled();

  // The view-specific tool follows the view through the polyfill's toolchange too.
  await page.goto(`${sites.urls.clinic}#/appointments`);
  await expect(tool('reschedule_appointment')).toBeVisible();
  await page.goto(`${sites.urls.clinic}#/book`);
  await expect(tool('reschedule_appointment')).toHaveCount(0);

  const list = tool('list_doctors');
  await list.getByRole('button', { name: 'Run' }).click();
  const doctors = JSON.stringify(await (await fetch(new URL('/api/doctors', sites.urls.clinic))).json());
  const firstDoctorName = doctors.match(/"name":"([^"]+)"/)?.[1];
  await expect(list.getByRole('region', { name: 'Result of list_doctors' })).toContainText(firstDoctorName!);
});

test('a declarative form an agent’s call fills and sends carries data-tool-form-active (its submit button data-tool-submit-active), as Chrome’s pseudo-classes would', async ({ steward, sites }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/webmcp/cases`);
  const seen = await page.evaluate(async () => {
    document.head.insertAdjacentHTML('beforeend', '<style>form[data-tool-form-active]{background-color:rgb(0,255,0)} button[data-tool-submit-active]{color:rgb(255,0,0)}</style>');
    document.body.insertAdjacentHTML(
      'beforeend',
      '<form id="pseudo" toolname="pseudo_tool" tooldescription="Pseudo classes tool" toolautosubmit action="about:blank"><input name="query"><button type="submit">Send</button></form>',
    );
    const form = document.getElementById('pseudo') as HTMLFormElement;
    const button = form.querySelector('button')!;
    const input = form.querySelector('input')!;
    let during: Record<string, unknown> = {};
    form.addEventListener('submit', (event) => {
      during = {
        form: form.hasAttribute('data-tool-form-active'),
        button: button.hasAttribute('data-tool-submit-active'),
        input: input.hasAttribute('data-tool-form-active') || input.hasAttribute('data-tool-submit-active'),
        background: getComputedStyle(form).backgroundColor,
        color: getComputedStyle(button).color,
      };
      event.preventDefault();
      (event as unknown as { respondWith(p: Promise<string>): void }).respondWith(Promise.resolve('result'));
    });
    const mc = (document as unknown as { modelContext: { getTools(): Promise<Array<{ name: string }>>; executeTool(t: unknown, i: unknown): Promise<unknown> } }).modelContext;
    let tool: { name: string } | undefined;
    for (let i = 0; i < 50 && !tool; i++) {
      tool = (await mc.getTools()).find((t) => t.name === 'pseudo_tool');
      if (!tool) await new Promise((r) => setTimeout(r, 20));
    }
    const answer = await mc.executeTool(tool, { query: 'testing' });
    return { during, answer, after: { form: form.hasAttribute('data-tool-form-active'), button: button.hasAttribute('data-tool-submit-active') } };
  });
  expect(seen).toEqual({
    during: { form: true, button: true, input: false, background: 'rgb(0, 255, 0)', color: 'rgb(255, 0, 0)' },
    answer: 'result',
    after: { form: false, button: false },
  });
});
