import type { BrowserContext, ConsoleMessage, TestInfo, WebError } from '@playwright/test';

/**
 * What the browser said while a test ran: uncaught errors and console errors of its pages and of
 * Steward's worker. Printed, with what each open page shows, only when the test fails: a failure in
 * CI (where no trace is kept) then says what the panel and the worker were doing.
 */
export function watchBrowser(context: BrowserContext): { report(testInfo: TestInfo): Promise<void>; stop(): void } {
  const heard: string[] = [];
  const started = Date.now();
  const at = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    heard.push(`${at()} ${message.type()} ${shortUrl(message.location().url)}: ${message.text().slice(0, 500)}`);
  };
  const onError = (error: WebError) => {
    heard.push(`${at()} uncaught ${shortUrl(error.page()?.url() ?? '')}: ${String(error.error()?.stack ?? error.error()).slice(0, 800)}`);
  };
  context.on('console', onConsole);
  context.on('weberror', onError);
  return {
    async report(testInfo) {
      if (testInfo.status === testInfo.expectedStatus && process.env.STEWARD_E2E_DIAGNOSTICS !== 'all') return;
      const pages = await Promise.all(
        context.pages().map(async (page) => {
          const text = await Promise.race([
            page.evaluate(() => document.body?.innerText ?? '').catch((e: Error) => `(unreadable: ${e.message.split('\n')[0]})`),
            sleep(2000).then(() => '(no answer in 2 s)'),
          ]);
          return `  ${shortUrl(page.url())}\n    ${String(text).replace(/\s+/g, ' ').slice(0, 600)}`;
        }),
      );
      console.error([`[e2e diagnostics] ${testInfo.title}`, 'heard:', ...(heard.length ? heard.slice(-40).map((h) => `  ${h}`) : ['  (nothing)']), 'pages:', ...pages].join('\n'));
    },
    stop() {
      context.off('console', onConsole);
      context.off('weberror', onError);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shortUrl = (url: string) => url.replace(/^chrome-extension:\/\/[a-p]{32}/, 'ext:').slice(0, 120);
