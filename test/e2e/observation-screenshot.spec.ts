import { clickStewardButton } from '../harness/browser.ts';
import { test, expect } from '../harness/fixtures.ts';
import { observeViaPanel as observe } from '../harness/panel-helpers.ts';

/**
 * Screenshot evidence: the tab showing in its window is captured after its observation settles.
 * A page painted white on white has a full DOM and blank pixels — a conflict no DOM reader sees.
 * Chrome lets an extension capture a tab only with activeTab or access to every site: Steward's
 * per-site access is not enough, so the capture happens on a tab where the person clicked
 * Steward's toolbar button.
 */
test('a blank screenshot over a non-empty DOM is the screenshot_blank conflict; a painted page is not', async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/unpainted`);
  const tabId = await tabIdOf(page);
  const panel = await openPanel(page);
  // The panel opened as a tab of its own; the observed page must be the one showing.
  await page.bringToFront();
  // Why a capture failed, when one did (the service worker keeps the last error).
  const captureError = () => steward.serviceWorker.evaluate(() => `last capture error: ${(globalThis as { stewardLastCaptureError?: string }).stewardLastCaptureError ?? 'none'}`);
  // The person clicks Steward's toolbar button on the page: Chrome lets Steward capture this tab (activeTab).
  await clickStewardButton(steward, page);
  const blank = await observe(panel, tabId);
  expect(blank.state?.evidence, await captureError()).toContain('screenshot');
  expect(blank.state?.conflicts).toContain('screenshot_blank');

  // The same page once its styles paint the text: evidence stays, the conflict goes.
  await page.addStyleTag({ content: '* { color: #111 !important; } button { background: #cde !important; }' });
  const painted = await observe(panel, tabId);
  expect(painted.state?.evidence, await captureError()).toContain('screenshot');
  expect(painted.state?.conflicts).not.toContain('screenshot_blank');
  expect(painted.state!.confidence).toBeGreaterThan(blank.state!.confidence);

  // A tab in the background cannot be captured: no screenshot evidence is claimed for it.
  await panel.bringToFront();
  const background = await observe(panel, tabId);
  expect(background.state?.evidence).not.toContain('screenshot');
  expect(background.state?.conflicts).not.toContain('screenshot_blank');
});

test("without the toolbar click, Steward's access to the site is not enough for Chrome to let it capture the tab: no screenshot is claimed", async ({ steward, sites, openPanel, tabIdOf }) => {
  const page = await steward.context.newPage();
  await page.goto(`${sites.urls.lab}/unpainted`);
  const tabId = await tabIdOf(page);
  const panel = await openPanel(page);
  await page.bringToFront();
  const uncaptured = await observe(panel, tabId);
  expect(uncaptured.state?.evidence).toEqual(expect.arrayContaining(['dom']));
  expect(uncaptured.state?.evidence).not.toContain('screenshot');
  expect(uncaptured.state?.conflicts).not.toContain('screenshot_blank');
  expect(await steward.serviceWorker.evaluate(() => (globalThis as { stewardLastCaptureError?: string }).stewardLastCaptureError)).toContain("'<all_urls>' or 'activeTab' permission is required");
});
