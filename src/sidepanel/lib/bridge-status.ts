import { t } from '../../base/i18n.ts';
import type { BridgeStatus } from '../../protocol/bridge.ts';
import { said } from './phrases.ts';

/** The words Settings shows for the MCP bridge's link. Pure. */
export const BRIDGE_INSTALL_COMMAND = 'npx steward-bridge install';

export function bridgeStatusWords(s: BridgeStatus): { headline: string; detail: string; hint?: string } {
  if (s.connected) return { headline: t('pairing_bridge_connected'), detail: s.host_version ? t('pairing_bridge_host_version', s.host_version) : t('pairing_bridge_host_version_unknown') };
  // The worker's reason in the person's words (its phrase), else as it wrote it.
  const detail = s.problem !== undefined ? said(s.problem_said, s.problem) : t('pairing_bridge_not_reached');
  return { headline: t('pairing_bridge_not_connected'), detail, hint: t('pairing_bridge_install_hint', BRIDGE_INSTALL_COMMAND) };
}
