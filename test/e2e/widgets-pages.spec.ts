/**
 * The widget lab's tasks solved the way a person solves them, in plain Chromium without Steward:
 * each task's page opened under its own episode, the person's actions made with Playwright
 * (clicks, typing, keys, hover, drags), then the server asked what it received. Proves every
 * page works and every task's expected answer is what doing the task sends.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { WIDGET_TASKS, answersFor, judge, withEpisode, type WidgetTask } from '../../sites/lab/widgets/tasks.ts';
import { CHROMIUM_FLAGS } from '../harness/browser.ts';
import { expect, test } from '../harness/fixtures.ts';

type Solve = (page: Page) => Promise<void>;

/** Drags with the mouse in small steps, as a hand does (jQuery UI and pointer-event lists need the moves). */
async function dragWithMouse(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

async function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const press =
  (name: string): Solve =>
  (page) =>
    page.getByRole('button', { name, exact: true }).click();

const SOLVERS: Readonly<Record<string, Solve>> = {
  'jq-datepicker': async (page) => {
    await page.getByLabel('Date').click();
    await page.getByTitle('Next').click();
    await expect(page.locator('.ui-datepicker-month')).toHaveText('December');
    await page.locator('.ui-datepicker-calendar a', { hasText: /^7$/ }).click();
    await press('Submit')(page);
  },
  'jq-autocomplete': async (page) => {
    await page.getByLabel('City').pressSequentially('Li', { delay: 50 });
    await page.locator('.ui-menu-item-wrapper', { hasText: 'Lisbon, Portugal' }).click();
    await press('Submit')(page);
  },
  'jq-slider': async (page) => {
    await page.locator('#price .ui-slider-handle').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect(page.locator('#amount')).toHaveText('€70');
    await press('Apply')(page);
  },
  'jq-spinner': async (page) => {
    await page.locator('.ui-spinner-up').click();
    await page.locator('.ui-spinner-up').click();
    await expect(page.getByRole('spinbutton', { name: 'Guests' })).toHaveValue('4');
    await press('Book')(page);
  },
  'jq-menu': async (page) => {
    await page.getByRole('menuitem', { name: 'Settings' }).hover();
    await page.getByRole('menuitem', { name: 'Privacy' }).click();
  },
  'jq-selectmenu': async (page) => {
    await page.locator('#speed-button').click();
    await page.getByRole('option', { name: 'Express (1–2 days)' }).click();
    await press('Continue')(page);
  },
  'jq-accordion': async (page) => {
    await page.getByText('Returns', { exact: true }).click();
    await press('Start a return')(page);
  },
  'jq-tabs': async (page) => {
    await page.getByRole('tab', { name: 'Shipping' }).click();
    await press('Use a pickup point')(page);
  },
  'jq-dialog': async (page) => {
    await press('Review terms')(page);
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await press('Continue')(page);
  },
  'jq-sortable': async (page) => {
    await dragWithMouse(page, await centreOf(page, '#list li:has-text("Pay invoices")'), {
      ...(await centreOf(page, '#list li:first-child')),
      y: (await centreOf(page, '#list li:first-child')).y - 12,
    });
    await expect(page.locator('#list li').first()).toHaveText('Pay invoices');
    await press('Save order')(page);
  },
  'jq-draggable': async (page) => dragWithMouse(page, await centreOf(page, '.card[data-id=q3-report]'), await centreOf(page, '#bin')),
  'jq-checkboxradio': async (page) => {
    await page.getByText('Window', { exact: true }).click();
    await page.getByText('Extra legroom', { exact: true }).click();
    await press('Confirm')(page);
  },
  'mui-autocomplete': async (page) => {
    await page.getByRole('combobox', { name: 'Country' }).pressSequentially('Po');
    await page.getByRole('option', { name: 'Portugal' }).click();
    await press('Submit')(page);
  },
  'mui-slider': async (page) => {
    const slider = page.getByRole('slider', { name: 'Volume' });
    await slider.focus();
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft');
    await expect(slider).toHaveValue('30');
    await press('Save')(page);
  },
  'mui-tabs': async (page) => {
    await page.getByRole('tab', { name: 'Billing' }).click();
    await press('Download invoice')(page);
  },
  'mui-menu': async (page) => {
    await page.locator('button[aria-haspopup=menu]').click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
  },
  'mui-accordion': async (page) => {
    await page.getByRole('button', { name: 'Delivery instructions' }).click();
    await page.getByRole('checkbox', { name: 'Leave at the door' }).check();
    await press('Save')(page);
  },
  'mui-tree': async (page) => {
    await page.getByRole('button', { name: /Reports/ }).click();
    await page.getByRole('button', { name: /2026/ }).click();
    await page.getByRole('button', { name: 'q3-summary.pdf' }).click();
  },
  'mui-date': async (page) => {
    await page.getByLabel('Delivery date').fill('2026-12-24');
    await press('Schedule')(page);
  },
  'native-date': async (page) => {
    await page.getByLabel('Departure').fill('2027-01-15');
    await press('Search flights')(page);
  },
  'native-range': async (page) => {
    await page.getByLabel('Brightness').fill('75');
    await press('Apply')(page);
  },
  'native-number': async (page) => {
    await page.getByLabel('Tickets').fill('3');
    await press('Buy')(page);
  },
  'native-color': async (page) => {
    await page.getByLabel('Accent colour').fill('#1e90ff');
    await press('Save')(page);
  },
  'native-file': async (page) => {
    await page.getByLabel('Attachment').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await press('Upload')(page);
  },
  'native-select-multiple': async (page) => {
    await page.getByLabel('Toppings').selectOption(['Mushrooms', 'Olives']);
    await press('Order')(page);
  },
  'v-span-link': (page) => page.getByText('Bleeding hydraulic brakes').click(),
  'v-div-tabs': async (page) => {
    await page.getByText('Reviews', { exact: true }).click();
    await press('Write a review')(page);
  },
  'v-collapsible': async (page) => {
    await page.getByText('Downloads', { exact: true }).click();
    await press('Download manual')(page);
  },
  'v-tree': async (page) => {
    await page.getByText('Documents', { exact: true }).click();
    await page.getByText('Invoices', { exact: true }).click();
    await page.getByText('invoice-2026-11.pdf').click();
  },
  'v-inbox': (page) => page.getByText('Omar Haddad').click(),
  'v-icon-menu': async (page) => {
    const row = page.locator('.irow', { hasText: 'Invoice 1042' });
    await row.locator('.kebab').click();
    await row.getByText('Duplicate').click();
  },
  'v-covered-sticky': press('Save draft'),
  // The badge lies over the button's middle: a person clicks the part they can see.
  'v-covered-sibling': async (page) => {
    const button = page.getByRole('button', { name: 'Add to list' });
    const box = (await button.boundingBox())!;
    await button.click({ position: { x: box.width - 8, y: box.height / 2 } });
  },
  'v-covered-overlay': press('Preview'),
  'v-covered-banner': async (page) => {
    await page.getByRole('button', { name: 'Close' }).click();
    await press('Publish')(page);
  },
  'v-search': async (page) => {
    await page.getByRole('searchbox', { name: 'Search products' }).fill('trail shoes');
    await page.keyboard.press('Enter');
  },
  'v-listbox': async (page) => {
    await page.getByRole('listbox').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option', { name: 'Large', exact: true })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
  },
  'v-escape-dialog': async (page) => {
    await page.keyboard.press('Escape');
    await press('Read more')(page);
  },
  'v-shortcut': async (page) => {
    await page.locator('#note').click();
    await page.keyboard.press('Control+s');
  },
  'v-hover-css': async (page) => {
    await page.locator('.top-item', { hasText: 'Products' }).hover();
    await page.getByRole('link', { name: 'Tablets' }).click();
  },
  'v-hover-js': async (page) => {
    await page.locator('.top-item', { hasText: 'Support' }).hover();
    await page.getByRole('link', { name: 'Returns' }).click();
  },
  'v-drag-drop': (page) => page.getByText('Fix login bug').dragTo(page.locator('[data-zone=done]')),
  'v-pointer-sort': async (page) => {
    const top = await centreOf(page, '#sl li:first-child');
    await dragWithMouse(page, await centreOf(page, '#sl li:has-text("Bananas") .grip'), { x: top.x, y: top.y - 10 });
    await expect(page.locator('#sl .t').first()).toHaveText('Bananas');
    await press('Save list')(page);
  },
  'v-svg-large-red': (page) => page.locator('circle[r="40"][fill="#d32f2f"]').click(),
  'v-svg-small-blue': (page) => page.locator('rect[width="32"][fill="#1e63d6"]').click(),
  // Where the square is drawn is the page's secret (pixels only): a person sees it, so we look too.
  'v-canvas': async (page) => {
    const box = (await page.locator('#cv').boundingBox())!;
    const at = await page.evaluate(() => {
      const c = (document.getElementById('cv') as HTMLCanvasElement).getContext('2d')!;
      for (let y = 0; y < 220; y += 5) for (let x = 0; x < 440; x += 5) if (c.getImageData(x, y, 1, 1).data.join() === '30,99,214,255') return { x: x + 10, y: y + 10 };
      return null;
    });
    expect(at, 'a blue pixel on the canvas').not.toBeNull();
    await page.mouse.click(box.x + at!.x, box.y + at!.y);
  },
  'v-quantity': async (page) => {
    await page.getByRole('button', { name: '+' }).click();
    await page.getByRole('button', { name: '+' }).click();
    await expect(page.locator('.count')).toHaveValue('3');
    await press('Add to basket')(page);
  },
};

let browser: Browser;
test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
});
test.afterAll(async () => {
  await browser?.close();
});

test('every task has a solver, and every solver a task', () => {
  expect(Object.keys(SOLVERS).sort()).toEqual(WIDGET_TASKS.map((t) => t.id).sort());
});

async function solve(task: WidgetTask, lab: string): Promise<void> {
  const episode = `e2e-${task.id}`;
  const page = await browser.newPage({ viewport: { width: 1000, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(new URL(withEpisode(task.path, episode), lab).href);
    await page.waitForLoadState('networkidle');
    await SOLVERS[task.id]!(page);
    await expect.poll(async () => (await answersFor(lab, episode)).length, { message: 'the page sent an answer' }).toBeGreaterThan(0);
    const { solved, first } = judge(task, await answersFor(lab, episode));
    expect(first, 'what the server received first').toEqual(task.expected);
    expect(solved).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
}

test.describe('widget tasks solved by a person (plain Chromium, answers checked on the server)', () => {
  for (const task of WIDGET_TASKS) test(`${task.id}: ${task.goal}`, ({ sites }) => solve(task, sites.urls.lab));

  test('a wrong first pick is a failure, whatever comes after', async ({ sites }) => {
    const task = WIDGET_TASKS.find((t) => t.id === 'v-svg-large-red')!;
    const episode = 'e2e-wrong-first';
    const page = await browser.newPage();
    await page.goto(new URL(withEpisode(task.path, episode), sites.urls.lab).href);
    await page.locator('circle[r="16"][fill="#d32f2f"]').click();
    await page.locator('circle[r="40"][fill="#d32f2f"]').click();
    await expect.poll(async () => (await answersFor(sites.urls.lab, episode)).length).toBe(2);
    expect(judge(task, await answersFor(sites.urls.lab, episode))).toEqual({ solved: false, first: { shape: 'circle', color: 'red', size: 'small' } });
    await page.close();
  });
});
