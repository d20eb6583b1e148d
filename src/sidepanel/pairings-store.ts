import { signal } from '@preact/signals';
import type { PairingView } from '../protocol/bridge.ts';
import { listPairings, subscribe } from './background-client.ts';

/**
 * MCP clients waiting to pair, shared by the Approvals view and the tab bar's count. Reloaded
 * whenever the service worker says they changed (and after it restarts). A worker without the
 * bridge answers with a refusal: then there is simply nothing waiting.
 */
export const pendingPairings = signal<PairingView[]>([]);

export async function reloadPairings(): Promise<void> {
  try {
    pendingPairings.value = (await listPairings()).pending;
  } catch {
    pendingPairings.value = [];
  }
}

/** Drops a card at once after a decision, before the worker's push arrives. */
export function forgetPairing(pairingId: string): void {
  pendingPairings.value = pendingPairings.value.filter((p) => p.pairing_id !== pairingId);
}

export function trackPairings(): void {
  void reloadPairings();
  subscribe((m) => {
    if (m.type === 'panel/pairings-changed' || m.type === 'panel/reconnected') void reloadPairings();
  });
}
