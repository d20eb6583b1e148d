/** The reply envelope every control message gets (see `Reply` in src/protocol/messages.ts). */
export type ControlReply = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string; retryable: boolean } };

export const ok = (data: unknown): ControlReply => ({ ok: true, data });
export const refuse = (code: string, message: string, retryable = false): ControlReply => ({ ok: false, error: { code, message: message.slice(0, 4000), retryable } });
