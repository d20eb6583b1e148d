// Steward's service worker: the one place where policy, tokens and records live. It can be
// stopped at any moment (MV3), so everything it must remember is persisted before it matters.
// What it is made of, and in which order, is src/background/compose.ts.
import { composeServiceWorker } from './compose.ts';

composeServiceWorker();
