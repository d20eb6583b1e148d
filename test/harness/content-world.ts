import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * Runs `expression` in Steward's isolated content-script world of the page's top frame, through
 * CDP: what a page that had compromised Steward's content script could run there.
 */
export async function inContentScript(page: Page, expression: string): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  const contexts: Array<{ id: number; name: string; auxData?: { type?: string } }> = [];
  cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  try {
    await expect.poll(() => contexts.some((c) => c.auxData?.type === 'isolated' && c.name === 'Steward')).toBe(true);
    const world = contexts.find((c) => c.auxData?.type === 'isolated' && c.name === 'Steward')!;
    const r = await cdp.send('Runtime.evaluate', { expression, contextId: world.id, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`content-script evaluation threw: ${JSON.stringify(r.exceptionDetails).slice(0, 500)}`);
    return r.result.value;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The centre of the Stop button on Steward's indicator (its closed shadow root, readable only from
 * the isolated world), or null while the page shows none. The person's click is then a real one,
 * at that point (`page.mouse.click`): the only Stop Steward answers.
 */
export async function stewardStopButton(page: Page): Promise<{ x: number; y: number } | null> {
  return (await inContentScript(
    page,
    `(() => {
      for (const el of document.documentElement.children) {
        if (el.shadowRoot) continue;
        const button = chrome.dom.openOrClosedShadowRoot(el)?.querySelector('.card button');
        if (!button) continue;
        const box = button.getBoundingClientRect();
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
      }
      return null;
    })()`,
  )) as { x: number; y: number } | null;
}
