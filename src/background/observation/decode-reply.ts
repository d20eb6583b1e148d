import { ObserveReplyData, PageSnapshotSchema, SnapshotElementPatch, SnapshotElementSchema } from '../../protocol/messages.ts';
import { PackedRowsError, unpackObserveReply, type ObserveReplyChecks } from '../../protocol/packed-rows.ts';
import { compileColumnChecks, fastSafeParse } from '../../protocol/fast-check.ts';

/**
 * A page's `content/observe` answer, from JSON text to a validated ObserveReplyData (see
 * ObserveReplyText): parsed, its packed lists unpacked — their items checked column by column on
 * the way — and the whole reply then held to the schema. The verdict is always zod's (fast-check.ts).
 */

type Refusal = { ok: false; error: { code: 'INVALID_REPLY'; message: string; retryable: false } };

const refuse = (message: string): Refusal => ({ ok: false, error: { code: 'INVALID_REPLY', message, retryable: false } });

/** ObserveReplyData.safeParse, with a valid reply (nearly every one) checked without zod's per-field work (fast-check.ts). */
const parseObserveReply = fastSafeParse(ObserveReplyData);
/** The long lists' items, checked column by column as they are unpacked (the reply's check then skips them). */
const ROW_CHECKS: ObserveReplyChecks = {
  element: compileColumnChecks(SnapshotElementSchema),
  text: compileColumnChecks(PageSnapshotSchema.shape.texts.element),
  patch: compileColumnChecks(SnapshotElementPatch),
};

export function decodeObserveReply(text: string): { ok: true; data: ObserveReplyData } | Refusal {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refuse("The page's answer is not JSON.");
  }
  try {
    raw = unpackObserveReply(raw, ROW_CHECKS);
  } catch (error) {
    if (!(error instanceof PackedRowsError)) throw error;
    return refuse(`The page's answer has malformed packed rows (${error.message}).`);
  }
  const parsed = parseObserveReply(raw);
  if (!parsed.success) return refuse(`The page's answer does not fit the schema: ${parsed.error.message.slice(0, 500)}`);
  return { ok: true, data: parsed.data };
}
