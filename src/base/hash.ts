import type { InputHash, Sha256Hex } from '../protocol/primitives.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import { canonicalJson } from './canonical-json.ts';

/** SHA-256 via WebCrypto, available in the service worker and in Node 20. */
export async function sha256Hex(text: string): Promise<Sha256Hex> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const bytes = new Uint8Array(digest);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** `sha256:` + hex of the canonical JSON of an action's input: what receipts and the audit bind to. */
export async function inputHash(input: unknown): Promise<InputHash> {
  return `sha256:${await sha256Hex(canonicalJson(input))}`;
}

/**
 * What an idempotency key is bound to: the action, the resource and the input together, so a
 * key reused for another action or resource with the same input is a conflict too.
 */
export async function requestHash(action: string, resource: ResourceRef, input: unknown): Promise<InputHash> {
  return `sha256:${await sha256Hex(canonicalJson({ action, resource: { type: resource.type, id: resource.id }, input }))}`;
}
