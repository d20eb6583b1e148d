// First: every word the panel shows comes from chrome.i18n.
import { messagesReady } from './i18n.ts';
import { render } from 'preact';
import { trackApprovals } from './approvals-store.ts';
import { App } from './components/App.tsx';
import { trackCopilot } from './copilot-store.ts';
import { trackCurrentTab } from './current-tab.ts';
import { startClock } from './now.ts';
import { trackPairings } from './pairings-store.ts';
import { trackSettings } from './settings.ts';
import { trackWelcome } from './welcome-store.ts';
import { trackPolicy } from './policy-store.ts';

trackCurrentTab();
trackSettings();
trackApprovals();
trackCopilot();
trackPairings();
trackWelcome();
trackPolicy();
startClock();
// The words first: a page Chrome gave no message bundle reads its catalogue before anything shows.
void messagesReady()
  .catch((error: unknown) => console.error('Steward could not read its catalogue', error))
  .finally(() => render(<App />, document.getElementById('app')!));
