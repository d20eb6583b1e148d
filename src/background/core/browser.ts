import browser from 'webextension-polyfill';

/** Which contexts may use a storage area: Chrome's storage.*.setAccessLevel. */
interface AccessLevelApi {
  setAccessLevel(options: { accessLevel: `${chrome.storage.AccessLevel}` }): Promise<void>;
}

/**
 * Chrome's APIs that webextension-polyfill's types (written for Firefox) leave out. The polyfill
 * hands them to `chrome` unchanged, and in MV3 they return promises; unit tests stub them on
 * @webext-core/fake-browser where they need them.
 */
interface ChromeOnlyApis {
  sidePanel: Pick<typeof chrome.sidePanel, 'open' | 'setPanelBehavior'>;
  storage: { local: AccessLevelApi; session: AccessLevelApi };
  /** `requireInteraction` and `priority` are Chrome's: a waiting approval stays on screen. */
  notifications: { create(id: string, options: chrome.notifications.NotificationCreateOptions): Promise<string> };
  /** Session rules that fence an agent's tab (navigation/fence.ts). */
  declarativeNetRequest: Pick<typeof chrome.declarativeNetRequest, 'updateSessionRules' | 'getSessionRules'>;
}

/**
 * The one way the service worker reaches the browser's extension APIs: webextension-polyfill's
 * promise-based `browser` (in unit tests, @webext-core/fake-browser), and `chromeOnly`, the same
 * object typed for the Chrome-only APIs above.
 */
export { browser };
export const chromeOnly = browser as unknown as ChromeOnlyApis;
