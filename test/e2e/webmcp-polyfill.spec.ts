import { test, expect } from './fixtures.ts';
import { showView } from './panel-helpers.ts';

// Chromium without native WebMCP (no NATIVE_WEBMCP_FLAG, browser.ts): no native document.modelContext, so the
// main-world script installs Steward's polyfill (@mcp-b/webmcp-polyfill with Steward's own methods) and Steward reaches it
// over its private port.
test.use({ nativeWebMcp: false });

test('without native WebMCP, the polyfill exposes the page’s tools to Steward', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.clinic);
  // The polyfill's ModelContext, which marks itself (Chrome's own does not).
  expect(await page.evaluate(() => (document as unknown as { modelContext?: { __isWebMCPPolyfill?: boolean } }).modelContext?.__isWebMCPPolyfill)).toBe(true);
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
