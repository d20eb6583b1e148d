import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, submitAsCopilot } from '../harness/panel-helpers.ts';
import { mint } from '../harness/pipeline-helpers.ts';
import { tabIdOfAnyPage } from '../harness/browser.ts';

/**
 * The panel for people who use a screen reader, the keyboard or a high zoom (issue 30.7): axe finds
 * nothing on any main view, with a card waiting, in both themes and both languages, and the card's
 * decision fits the first 600 px; the content is
 * one `main` landmark; the shortcut Chrome registered opens it.
 */

/** Each catalogue, for the words a test looks for (the buttons are named in the panel's language). */
const WORDS = Object.fromEntries(
  (['en', 'vi'] as const).map((lang) => [
    lang,
    Object.fromEntries(
      Object.entries(JSON.parse(readFileSync(new URL(`../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Record<string, { message: string }>).map(([k, v]) => [k, v.message]),
    ),
  ]),
) as Record<'en' | 'vi', Record<string, string>>;

/** The views in the order of their tabs, as the screenshots in docs/ are named. */
const VIEWS = ['copilot', 'approvals', 'activity', 'tokens', 'this-tab', 'settings'];
const DOCS_SCREENSHOTS = process.env.STEWARD_DOCS_SCREENSHOTS === '1';

/** WCAG 2.1 A and AA, what Chrome's own pages are held to. */
const RULES = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function violations(panel: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page: panel }).withTags(RULES).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? v.help}`));
}

for (const language of ['en', 'vi'] as const) {
  test.describe(`in ${language === 'en' ? 'English' : 'Vietnamese'}`, () => {
    if (language === 'vi') test.use({ uiLanguage: 'vi' });

    test('every main view, with a card waiting, in the light and the dark theme: axe finds nothing, the card’s Approve and Deny sit in the first 600 px, and the views are inside one main landmark', async ({
      steward,
      sites,
      openPanel,
      tabIdOf,
    }) => {
      // Twelve views read by axe, each a few seconds.
      test.setTimeout(180_000);
      const page = await steward.context.newPage();
      await page.goto(`${sites.urls.shop}/orders/${SHOP_ORDER}`);
      const panel = await openPanel(page);
      await panel.setViewportSize({ width: 360, height: 900 });
      const tabId = await tabIdOf(page);
      const token = await mint(panel, { scope: ['orders:read', 'orders:cancel'], resource_scope: `order:${SHOP_ORDER}`, origins: [new URL(sites.urls.shop).origin] });
      await submitAsCopilot(panel, tabId, token, cancelOrder(`axe-${language}`));

      const tabs = panel.getByRole('main').getByRole('tablist').getByRole('tab');
      await expect(tabs).toHaveCount(6);
      const found: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await panel.emulateMedia({ colorScheme: scheme });
        for (let i = 0; i < 6; i++) {
          const tab = tabs.nth(i);
          await tab.click();
          await expect(tab).toHaveAttribute('aria-selected', 'true');
          const view = panel.getByRole('tabpanel');
          await expect(view.getByRole('heading', { level: 2 })).toBeVisible();
          const name = (await tab.textContent())?.trim();
          // `STEWARD_DOCS_SCREENSHOTS=1`: the light views, as the README shows them (docs/screenshots).
          if (DOCS_SCREENSHOTS && scheme === 'light') await panel.screenshot({ path: `docs/screenshots/${VIEWS[i]}-${language}.png`, fullPage: true });
          // The decision fits the first 600 px of the panel, unscrolled, in this language and theme.
          if (VIEWS[i] === 'approvals') {
            const card = view.getByRole('article').first();
            expect(await panel.evaluate(() => window.scrollY)).toBe(0);
            for (const key of ['card_approve', 'card_deny']) {
              const box = (await card.getByRole('button', { name: WORDS[language][key], exact: true }).boundingBox())!;
              if (box.y + box.height > 600) found.push(`${scheme} · ${name} · ${key} ends at ${Math.round(box.y + box.height)} px, below the first 600`);
            }
          }
          // The card's Details open too: what a person checks before approving is read as well.
          for (const details of await view.locator('details:not([open]) > summary').all()) await details.click();
          for (const v of await violations(panel)) found.push(`${scheme} · ${name} · ${v}`);
        }
      }
      expect(found, found.join('\n')).toEqual([]);
    });

    test('the tab label and the heading of every view say the same', async ({ steward, sites, openPanel }) => {
      const page = await steward.context.newPage();
      await page.goto(sites.urls.shop);
      const panel = await openPanel(page);
      const tabs = panel.getByRole('tablist').getByRole('tab');
      await expect(tabs).toHaveCount(6);
      for (let i = 0; i < 6; i++) {
        await tabs.nth(i).click();
        const label = ((await tabs.nth(i).textContent()) ?? '').replace(/\d.*$/, '').trim();
        await expect(panel.getByRole('tabpanel').getByRole('heading', { level: 2 }).first()).toHaveText(label);
      }
    });
  });
}

test.describe('the keyboard shortcut', () => {
  test.use({ demoSitesAllowed: false });

  test('Alt+Shift+S is Steward’s shortcut in Chrome, and pressing it on a site does what the toolbar button does: the panel can name the site and offer to allow it', async ({ steward, sites }) => {
    const commands = await steward.serviceWorker.evaluate(() => chrome.commands.getAll());
    expect(commands.find((c) => c.name === '_execute_action')?.shortcut).toBe('Alt+Shift+S');

    const page = await steward.context.newPage();
    await page.goto(sites.urls.shop);
    const tabId = await tabIdOfAnyPage(steward.serviceWorker, page);
    const openPinned = async () => {
      const panel = await steward.context.newPage();
      await panel.goto(`chrome-extension://${steward.extensionId}/src/sidepanel/index.html?tabId=${tabId}&view=tab`);
      return panel;
    };
    // Before: Chrome hides the tab's address from Steward.
    const before = await openPinned();
    await expect(before.getByRole('region', { name: 'Site access' })).toContainText('Steward cannot see this tab’s address');
    await before.close();

    await pressShortcut(page);
    const shop = new URL(sites.urls.shop).origin;
    const after = await openPinned();
    await expect(after.getByRole('region', { name: 'Site access' }).getByRole('button', { name: `Allow ${shop}` })).toBeVisible();
  });
});

/**
 * Alt+Shift+S as the keyboard sends it: a raw key-down that the page does not handle reaches
 * Chrome's own shortcuts (Playwright's keyboard.press sends a key-down with text, which the page
 * takes as typing, so Chrome never sees a shortcut).
 */
async function pressShortcut(page: Page): Promise<void> {
  await page.bringToFront();
  const cdp = await page.context().newCDPSession(page);
  try {
    const ALT = 1;
    const SHIFT = 8;
    for (const type of ['rawKeyDown', 'keyUp'] as const)
      await cdp.send('Input.dispatchKeyEvent', { type, modifiers: ALT | SHIFT, key: 'S', code: 'KeyS', windowsVirtualKeyCode: 83, nativeVirtualKeyCode: 83 });
  } finally {
    await cdp.detach();
  }
}
