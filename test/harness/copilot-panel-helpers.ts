import { type Page } from '@playwright/test';
import { expect } from './expect.ts';
import { grantInChromeSettings } from './browser.ts';
import { SHOP_ORDER, showView } from './panel-helpers.ts';

/** Steps for the Co-pilot view's e2e tests: the model is configured and the run started through the panel's own UI. */

/** The scripted model's reply for one step (the co-pilot's step schema, src/agent/step-schema.ts). */
const actReply = (thought: string, name: string, resource: { type: string; id: string }, input: Record<string, unknown>, expect: string) =>
  JSON.stringify({ kind: 'act', thought, action: { name, resource, input }, expect });
const doneReply = (thought: string, claim: string) => JSON.stringify({ kind: 'done', thought, claim });

export const cancelReply = actReply(
  'The person wants order ORD-1024 cancelled; the page offers a cancel action for it.',
  'orders.cancel',
  { type: 'order', id: SHOP_ORDER },
  { reason: 'ordered_by_mistake' },
  'The order shows as cancelled.',
);
export const cancelledReply = doneReply('The order page now shows the order as cancelled.', `Order ${SHOP_ORDER} is cancelled.`);

/** Settings → Co-pilot: an OpenAI-compatible endpoint (the scripted server), and optionally a key, saved by the one Save. */
export async function configureModel(panel: Page, endpoint: string, opts: { key?: string; model?: string } = {}): Promise<void> {
  await showView(panel, 'Settings');
  await panel.getByLabel('Provider').selectOption('openai');
  await panel.getByLabel('Endpoint URL').fill(endpoint);
  await panel.getByLabel('Model name').fill(opts.model ?? 'scripted');
  // Saving asks Chrome for the model server's origin; the person granted it in Chrome's extension settings, so no prompt.
  await grantInChromeSettings({ context: panel.context(), extensionId: new URL(panel.url()).host }, [endpoint]);
  if (opts.key !== undefined) await panel.getByLabel('API key').fill(opts.key);
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await expect(panel.getByText(/^Settings saved\./)).toBeVisible();
  if (opts.key !== undefined) {
    await expect(panel.getByText('A key is stored.')).toBeVisible();
    await expect(panel.getByLabel('API key')).toHaveValue('');
  }
}

/** Types the goal in the Co-pilot view and presses Enter; returns the run's region. */
export async function startGoal(panel: Page, goal: string) {
  await showView(panel, 'Co-pilot');
  const box = panel.getByLabel('What should the co-pilot do on this page?');
  await box.fill(goal);
  await box.press('Enter');
  const run = panel.getByRole('region', { name: new RegExp(`^${goal}`) });
  await expect(run).toBeVisible();
  return run;
}
