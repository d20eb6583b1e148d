import type { SendToFrame } from '../../../../src/background/core/messenger.ts';

type SendOptions = Parameters<SendToFrame>[4];
import { parseReply, refuse } from '../../../../src/protocol/channel.ts';
import { ContentRequests } from '../../../../src/protocol/content-channel.ts';

/** What a fake page answers to a raw `{ type, ...payload }` message (options only when the caller gave them). */
export type RawFrame = (tabId: number, frameId: number, message: Record<string, unknown>, options?: SendOptions) => Promise<unknown>;

/** A SendToFrame over a fake page: the real message shape and the real reply checks (as tabMessenger, without Chrome). */
export function fakeFrames(raw: RawFrame): SendToFrame {
  return async (tabId, frameId, type, payload, options) => {
    const message = { ...payload, type };
    const answer = await (options ? raw(tabId, frameId, message, options) : raw(tabId, frameId, message));
    if (answer === undefined) return refuse('NO_CONTENT_SCRIPT', `The page in tab ${tabId} did not answer.`, true);
    return parseReply(ContentRequests, type, answer);
  };
}
