import { STEWARD_EXTENSION_ID } from '../../../src/protocol/bridge.ts';

/** An extension id: 32 letters a–p (the first 128 bits of the key's SHA-256, one letter per nibble). */
export const EXTENSION_ID = /^[a-p]{32}$/;

export type IdsOutcome = { ok: true; ids: string[] } | { ok: false; problem: string };

/**
 * The extension ids the host manifest allows: those given (`--extension-id`, repeatable, so one
 * manifest serves the unpacked build and the Web Store's), else `fallback` (an earlier install's),
 * else Steward's unpacked id (the manifest key's). Each must be an id (STEWARD_EXTENSION_ID too).
 */
export function extensionIds(given: readonly string[], fallback: readonly string[] = []): IdsOutcome {
  const ids = given.length > 0 ? given : fallback.length > 0 ? fallback : [STEWARD_EXTENSION_ID];
  const bad = ids.find((id) => !EXTENSION_ID.test(id));
  if (bad !== undefined) {
    return {
      ok: false,
      problem: `${JSON.stringify(bad)} is not an extension id: an id is 32 letters a–p, like ${STEWARD_EXTENSION_ID} (Steward loaded unpacked) or the id chrome://extensions shows for Steward from the Web Store.`,
    };
  }
  return { ok: true, ids: [...new Set(ids)] };
}

export const originOf = (id: string): string => `chrome-extension://${id}/`;
