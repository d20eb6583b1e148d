import { z } from 'zod';
import { PAGE_TIMERS_QUERY, PAGE_TIMERS_REPLY } from '../../protocol/page-channel-names.ts';

/** The main world's answer: a time, or empty for none (anything else is no answer). */
const Reply = z.union([
  z.literal(''),
  z
    .string()
    .max(32)
    .regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/),
]);

/**
 * When the last short timer the page set between `from` and `to` (performance.now() ms) is due,
 * asked of the main world (src/content/main/page-timers.ts) synchronously; undefined when none is
 * pending or nothing answers. The page can answer too: it can only make a wait shorter or longer,
 * and every wait is capped.
 */
export function pageTimersDue(doc: Document, from: number, to: number): number | undefined {
  let due: number | undefined;
  const onReply = (event: Event) => {
    const parsed = Reply.safeParse((event as CustomEvent).detail);
    if (parsed.success && parsed.data !== '') due = Number(parsed.data);
  };
  try {
    doc.addEventListener(PAGE_TIMERS_REPLY, onReply);
    doc.dispatchEvent(new CustomEvent(PAGE_TIMERS_QUERY, { detail: `${from},${to}` }));
  } catch {
    return undefined;
  } finally {
    doc.removeEventListener(PAGE_TIMERS_REPLY, onReply);
  }
  return due !== undefined && Number.isFinite(due) ? due : undefined;
}
