import { PAGE_DEADLINES, type PageDeadlines } from '../../protocol/deadlines.ts';

/**
 * The deadlines the service worker gives pages: PAGE_DEADLINES, never a setting. End-to-end tests
 * shorten them through the test hooks (src/background/test-hooks.ts) instead of waiting a minute
 * for a stalled page.
 */
export const pageDeadlines: PageDeadlines = { ...PAGE_DEADLINES };
