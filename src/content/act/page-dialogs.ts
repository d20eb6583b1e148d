import { z } from 'zod';
import { PAGE_DIALOGS_ARM, PAGE_DIALOGS_REPLY } from '../../protocol/page-channel-names.ts';
import { PageDialog } from '../../protocol/messages.ts';

/** The main world's answer: what the page asked while armed (anything else is no answer). */
const Reply = z.array(PageDialog).max(8);

/**
 * Arms the main world's dialog guard (src/content/main/page-dialogs.ts) for an agent's act on
 * `docs` (the top document, and the frame document of the element acted on); the returned
 * function disarms it and says which dialogs the page raised meanwhile — each answered as a
 * person who said no. Synchronous DOM events: the guard is on before the first step runs.
 */
export function armPageDialogs(docs: readonly Document[]): () => PageDialog[] {
  const unique = [...new Set(docs)];
  for (const doc of unique) send(doc, 'on');
  return () => {
    const asked: PageDialog[] = [];
    for (const doc of unique) {
      const onReply = (event: Event) => {
        try {
          const parsed = Reply.safeParse(JSON.parse(String((event as CustomEvent).detail)));
          if (parsed.success) asked.push(...parsed.data);
        } catch {
          // Not JSON: no answer.
        }
      };
      try {
        doc.addEventListener(PAGE_DIALOGS_REPLY, onReply);
        send(doc, 'off');
      } finally {
        doc.removeEventListener(PAGE_DIALOGS_REPLY, onReply);
      }
    }
    return asked.slice(0, 8);
  };
}

function send(doc: Document, detail: 'on' | 'off'): void {
  try {
    doc.dispatchEvent(new CustomEvent(PAGE_DIALOGS_ARM, { detail }));
  } catch {
    // A document gone: nothing to arm.
  }
}
