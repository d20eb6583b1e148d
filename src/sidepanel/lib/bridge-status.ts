import type { BridgeStatus } from '../../protocol/bridge.ts';

/** The words Settings shows for the MCP bridge's link. Pure. */
export const BRIDGE_INSTALL_COMMAND = 'npx steward-bridge install';
const BRIDGE_INSTALL_HINT = `To connect MCP clients, run ${BRIDGE_INSTALL_COMMAND} in the Steward folder, then restart the browser.`;

export function bridgeStatusWords(s: BridgeStatus): { headline: string; detail: string; hint?: string } {
  if (s.connected) return { headline: 'MCP bridge: connected', detail: s.host_version ? `Host version ${s.host_version}.` : 'Host version unknown.' };
  return { headline: 'MCP bridge: not connected', detail: s.problem ?? 'Steward has not reached the bridge yet.', hint: BRIDGE_INSTALL_HINT };
}
