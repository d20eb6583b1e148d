/**
 * Who sent a message, decided only from what Chrome attaches to it (never from the payload).
 * - content: one of Steward's content scripts, in a tab's frame;
 * - panel: Steward's side panel page (also when opened in a tab);
 * - unknown: anything else, including other extensions (externally_connectable is closed anyway).
 */
export type ContentSender = { kind: 'content'; tabId: number; frameId: number; documentId?: string; origin: string; url: string };
export type SenderKind = ContentSender | { kind: 'panel' } | { kind: 'unknown' };

export interface SenderFacts {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number };
  frameId?: number;
  documentId?: string;
}

export function classifySender(sender: SenderFacts, extensionId: string, panelUrlPrefix: string): SenderKind {
  if (sender.id !== extensionId) return { kind: 'unknown' };
  const url = sender.url ?? '';
  if (url.startsWith(panelUrlPrefix)) return { kind: 'panel' };
  // Extension pages are never content; a content script runs in a web page's frame.
  if (url.startsWith(`chrome-extension://${extensionId}/`)) return { kind: 'unknown' };
  const tabId = sender.tab?.id;
  if (tabId === undefined || tabId < 0 || sender.frameId === undefined) return { kind: 'unknown' };
  if (!/^https?:/.test(url)) return { kind: 'unknown' };
  return {
    kind: 'content',
    tabId,
    frameId: sender.frameId,
    ...(sender.documentId ? { documentId: sender.documentId } : {}),
    origin: sender.origin ?? new URL(url).origin,
    url,
  };
}
