import { expect as playwrightExpect } from '@playwright/test';

/**
 * Playwright's `expect`, with `expect.poll` probing every 100 ms at most instead of backing off to
 * once a second (its default is 100, 250, 500, then 1000 ms): what these tests wait for (a content
 * script's report, a stored record, a site's counter) usually comes within a few hundred
 * milliseconds, and a late probe only adds idle time. A test's own `intervals` still win.
 */
const POLL_INTERVALS = [25, 50, 100];

const poll: typeof playwrightExpect.poll = (actual, messageOrOptions) => {
  const options = typeof messageOrOptions === 'string' ? { message: messageOrOptions } : (messageOrOptions ?? {});
  return playwrightExpect.poll(actual, { intervals: POLL_INTERVALS, ...options });
};

export const expect: typeof playwrightExpect = new Proxy(playwrightExpect, {
  get: (target, key, receiver) => (key === 'poll' ? poll : Reflect.get(target, key, receiver)),
});
