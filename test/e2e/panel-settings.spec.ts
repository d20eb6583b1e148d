import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, showView } from '../harness/panel-helpers.ts';

const stored = (sw: import('@playwright/test').Worker) => sw.evaluate(async () => (await chrome.storage.local.get('steward.settings'))['steward.settings'] as Record<string, unknown> | undefined);

test('settings are validated, saved to chrome.storage.local, and used by the rest of the panel', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
  const panel = await openPanel(page);
  await showView(panel, 'Settings');

  const windowField = panel.getByLabel(/Approve for N minutes/);
  await windowField.fill('61');
  await panel.getByLabel('Endpoint URL').fill('ftp://model.example');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByText('Not saved: fix the fields marked below.')).toBeVisible();
  await expect(windowField).toHaveAccessibleDescription('must be a whole number of minutes from 1 to 60');
  await expect(panel.getByLabel('Endpoint URL')).toHaveAccessibleDescription('must be an http(s) URL, or empty');
  expect(await stored(steward.serviceWorker)).toBeUndefined();

  await windowField.fill('20');
  await panel.getByLabel('Endpoint URL').fill('http://localhost:11434/v1');
  await panel.getByLabel('Model name').fill('llama3.1:8b');
  await panel.getByLabel('Default lifetime of a new token').selectOption({ label: '8 hours' });
  await panel.getByLabel(/Steward’s polyfill/).uncheck();
  await panel.getByLabel('Show agents the tools a page marks as debugging-only').check();
  await panel.getByRole('button', { name: 'Save settings' }).click();
  // Saved at once; the model's server is an origin Chrome has not given Steward, so Chrome's prompt is up (unanswered here).
  await expect(panel.getByText('Settings saved. Waiting for Chrome: it asks you whether Steward may reach the co-pilot’s model at http://localhost:11434.')).toBeVisible();
  expect(await stored(steward.serviceWorker)).toEqual({
    polyfill_enabled: false,
    show_debugging_tools: true,
    token_lifetime_minutes: 480,
    approval_window_minutes: 20,
    copilot: { provider: 'openai', endpoint: 'http://localhost:11434/v1', model: 'llama3.1:8b', max_steps: 25, time_budget_minutes: 10, token_budget: 200_000 },
  });

  // They survive a reload and drive the mint form's default lifetime.
  await panel.reload();
  await showView(panel, 'Settings');
  await expect(panel.getByLabel(/Approve for N minutes/)).toHaveValue('20');
  await showView(panel, 'Tokens');
  await expect(panel.getByRole('form', { name: 'Grant a token' }).getByLabel('Lifetime')).toHaveValue('480');
});

/** What the worker holds for the activity log's retention and the audit export's target (chrome.storage.local). */
const keeping = (sw: import('@playwright/test').Worker) =>
  sw.evaluate(async () => {
    const items = await chrome.storage.local.get(null);
    return { retention: items['steward.audit_retention_days'] as unknown, target: items['steward.audit_export_target'] as unknown };
  });

test('one Save stores every changed setting together — model, retention, export target — and nothing while any field is wrong', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  await showView(panel, 'Settings');
  // Only one Save in the whole view.
  await expect(panel.getByRole('button', { name: /^Save/ })).toHaveText(['Save settings']);
  const before = await keeping(steward.serviceWorker);

  // A wrong retention and a wrong port: each says so next to its field, and nothing is stored, not even the valid model.
  await panel.getByLabel('Model name').fill('llama3.1:8b');
  const retention = panel.getByLabel(/Keep activity for/);
  await retention.fill('ten');
  await panel.getByLabel('Collector host').fill('127.0.0.1');
  const port = panel.getByLabel('Port', { exact: true });
  await port.fill('70000');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByText('Not saved: fix the fields marked below.')).toBeVisible();
  await expect(retention).toHaveAccessibleDescription('Enter a whole number of days from 1 to 3650, or leave it empty to keep everything.');
  await expect(port).toHaveAccessibleDescription('must be a port number (1–65535)');
  expect(await stored(steward.serviceWorker)).toBeUndefined();
  expect(await keeping(steward.serviceWorker)).toEqual(before);

  // Fixed: the one Save stores the model, the retention and the target, and says so for each.
  await retention.fill('30');
  await port.fill('6514');
  await panel.getByLabel('TLS (RFC 5425)').uncheck();
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Settings saved.' })).toHaveText('Settings saved. Steward keeps 30 days of activity. Audit export target saved.');
  await expect(retention).not.toHaveAttribute('aria-invalid');
  expect(await stored(steward.serviceWorker)).toMatchObject({ copilot: { model: 'llama3.1:8b' } });
  expect(await keeping(steward.serviceWorker)).toMatchObject({ retention: 30, target: { host: '127.0.0.1', port: 6514, tls: false } });

  // They are what Settings shows after a reload; emptying the host stops the export.
  await panel.reload();
  await showView(panel, 'Settings');
  await expect(panel.getByLabel(/Keep activity for/)).toHaveValue('30');
  await expect(panel.getByLabel('Collector host')).toHaveValue('127.0.0.1');
  await panel.getByLabel('Collector host').fill('');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Settings saved.' })).toHaveText('Settings saved. Audit export stopped.');
  expect((await keeping(steward.serviceWorker)).target ?? null).toBeNull();
  await expect(panel.locator('.audit-export-status')).toContainText('Audit export: off');
});

test('the view tabs follow the ARIA tabs pattern: arrows, Home and End move and select', async ({ steward, sites, openPanel }) => {
  const page = await steward.context.newPage();
  await page.goto(sites.urls.shop);
  const panel = await openPanel(page);
  const tabs = panel.getByRole('tab');
  await expect(tabs).toHaveText(['Co-pilot', 'Approvals', 'Activity', 'Tokens', 'This tab', 'Settings']);
  await panel.getByRole('tab', { name: 'This tab' }).focus();
  await panel.keyboard.press('ArrowRight');
  await expect(panel.getByRole('tab', { name: 'Settings' })).toBeFocused();
  await expect(panel.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tabpanel', { name: 'Settings' })).toBeVisible();
  await panel.keyboard.press('ArrowRight'); // wraps around
  await expect(panel.getByRole('tab', { name: 'Co-pilot' })).toBeFocused();
  await panel.keyboard.press('End');
  await expect(panel.getByRole('tab', { name: 'Settings' })).toBeFocused();
  await panel.keyboard.press('ArrowLeft');
  await expect(panel.getByRole('tabpanel', { name: 'This tab' })).toBeVisible();
  // Only the selected tab is in the Tab order; the other panels are hidden.
  await expect(panel.locator('[role=tab][tabindex="0"]')).toHaveCount(1);
  await expect(panel.getByRole('tabpanel')).toHaveCount(1);
});
