import { t } from '../../base/i18n.ts';
import type { BridgeStatus } from '../../protocol/bridge.ts';

/** The words Settings shows for the MCP bridge's link. Pure. */
export const BRIDGE_INSTALL_COMMAND = 'npx steward-bridge install';

export function bridgeStatusWords(s: BridgeStatus): { headline: string; detail: string; hint?: string } {
  if (s.connected) return { headline: t('pairing_bridge_connected'), detail: s.host_version ? t('pairing_bridge_host_version', s.host_version) : t('pairing_bridge_host_version_unknown') };
  // The problem is Chrome's own sentence about the native host (raw).
  return { headline: t('pairing_bridge_not_connected'), detail: s.problem ?? t('pairing_bridge_not_reached'), hint: t('pairing_bridge_install_hint', BRIDGE_INSTALL_COMMAND) };
}
