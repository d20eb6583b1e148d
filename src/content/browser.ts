import browser from 'webextension-polyfill';

/** Chrome's APIs that webextension-polyfill's types (written for Firefox) leave out. */
interface ChromeOnlyApis {
  /** Chrome 88+ gives content scripts closed shadow roots too; absent elsewhere. */
  dom?: Pick<typeof chrome.dom, 'openOrClosedShadowRoot'>;
}

/**
 * The one way this context reaches the browser's extension APIs: webextension-polyfill's
 * promise-based `browser` (in unit tests, @webext-core/fake-browser), and `chromeOnly`, the same
 * object typed for the Chrome-only APIs above.
 */
export { browser };
export const chromeOnly = browser as unknown as ChromeOnlyApis;
