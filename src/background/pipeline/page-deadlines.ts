import { PAGE_DEADLINES, type PageDeadlines } from '../../protocol/deadlines.ts';

/**
 * The deadlines the service worker gives pages: PAGE_DEADLINES, never a setting. End-to-end tests
 * shorten them through the worker's global scope (`stewardPipeline.deadlines`), which no page
 * and no content script can reach, instead of waiting a minute for a stalled page.
 */
export const pageDeadlines: PageDeadlines = { ...PAGE_DEADLINES };
