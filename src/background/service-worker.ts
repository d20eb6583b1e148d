// Steward's service worker: the one place where policy, tokens and records live. It can be
// stopped at any moment (MV3), so everything it must remember is persisted before it matters.
// First: the words of its notifications come from chrome.i18n.
import './i18n.ts';
// What it is made of, and in which order, is src/background/compose.ts.
import { composeServiceWorker } from './compose.ts';

composeServiceWorker();
