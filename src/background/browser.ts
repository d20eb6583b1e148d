import browser from 'webextension-polyfill';

/**
 * The one way this context reaches the browser's extension APIs: webextension-polyfill's
 * promise-based `browser`, which unit tests replace with @webext-core/fake-browser.
 */
export { browser };
