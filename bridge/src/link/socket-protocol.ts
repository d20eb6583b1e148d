import { z } from 'zod';
import { Reply } from '../../../src/protocol/channel.ts';
import { BridgeEvent, EXTENSION_TO_HOST_MAX_BYTES, HOST_TO_EXTENSION_MAX_BYTES } from '../../../src/protocol/bridge.ts';

/**
 * What an MCP server process and the native host say on the per-user socket, one JSON object a
 * line: a request carries a bridge message (`{type, ...payload}` of BridgeRequests, which Steward's
 * worker validates), and its response carries Steward's reply under the same id. An event line
 * (no id) passes on one of Steward's BridgeEvents to every connected process.
 */

const RequestId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const SocketRequest = z.object({ id: RequestId, message: z.looseObject({ type: z.string().min(1).max(64) }) }).strict();
export type SocketRequest = z.infer<typeof SocketRequest>;

export const SocketResponse = z.object({ id: RequestId, reply: Reply(z.unknown()) }).strict();
export type SocketResponse = z.infer<typeof SocketResponse>;

export const SocketEvent = z.object({ event: BridgeEvent }).strict();
export type SocketEvent = z.infer<typeof SocketEvent>;

/** A request becomes one native-messaging frame, which Chrome caps (the envelope adds a little). */
export const SOCKET_REQUEST_MAX_BYTES = HOST_TO_EXTENSION_MAX_BYTES;
/** A response carries one of Steward's replies, plus the envelope. */
export const SOCKET_RESPONSE_MAX_BYTES = EXTENSION_TO_HOST_MAX_BYTES + 4096;
