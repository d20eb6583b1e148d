import { z } from 'zod';

/**
 * Messages on the private MessagePort between the main-world polyfill bridge and the isolated
 * content script. The main world is page-controlled, so the isolated side validates everything
 * it receives and grants it no more authority than the page itself has. The handshake's DOM
 * event names are in page-bridge-names.ts (no zod in the main-world scripts).
 */

/** What the main world says with its port: whether Steward's polyfill serves tools on it (page-controlled, like everything here). */
export const PortOffer = z.object({ polyfill: z.boolean() });
export type PortOffer = z.infer<typeof PortOffer>;

export const BridgeRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('list'), id: z.number().int() }),
  z.object({ op: z.literal('run'), id: z.number().int(), name: z.string(), input: z.record(z.string(), z.unknown()) }),
]);
export type BridgeRequest = z.infer<typeof BridgeRequest>;

const RawToolWire = z
  .object({
    name: z.unknown(),
    title: z.unknown().optional(),
    description: z.unknown().optional(),
    inputSchema: z.unknown().optional(),
    annotations: z.unknown().optional(),
  })
  .passthrough();

/**
 * A same-origin JSON response the main world's network observer saw. Bounded there, but the
 * main world is the page's: the isolated side re-checks origin, size and secrets (NetworkBuffer).
 */
export const NetworkWire = z.object({
  url: z.string().max(4096),
  method: z.string().max(16),
  status: z.number().int().min(0).max(999),
  json: z.unknown(),
  truncated: z.boolean(),
});
export type NetworkWire = z.infer<typeof NetworkWire>;

export const BridgeEvent = z.discriminatedUnion('op', [
  z.object({ op: z.literal('tools'), id: z.number().int().optional(), tools: z.array(RawToolWire).max(2048) }),
  z.object({ op: z.literal('changed') }),
  z.object({ op: z.literal('result'), id: z.number().int(), result: z.string().nullable(), truncated: z.boolean() }),
  z.object({ op: z.literal('error'), id: z.number().int(), name: z.string().max(200), message: z.string().max(4000) }),
  z.object({ op: z.literal('network'), record: NetworkWire }),
]);
export type BridgeEvent = z.infer<typeof BridgeEvent>;
