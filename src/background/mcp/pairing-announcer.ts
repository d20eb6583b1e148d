import type { PanelPush } from '../../protocol/panel-channel.ts';
import type { AnnounceApis } from '../pipeline/approval-announcer.ts';

/**
 * Tells the person an MCP client asks to pair: open side panels refresh their pairing requests;
 * with no panel open, a desktop notification says where to decide (a click opens the side panel).
 * The notification names the client as it named itself, and asks nothing of the person but to look.
 */
export function pairingAnnouncer(panels: { readonly count: number; push(message: PanelPush): void }, apis: Pick<AnnounceApis, 'notify'>) {
  return (clientName: string): void => {
    panels.push({ type: 'panel/pairings-changed' });
    if (panels.count > 0) return;
    const message = `An MCP client calling itself "${clientName.slice(0, 120)}" asks to use your browser through Steward. Open Steward's side panel to compare the pairing code and decide.`;
    apis.notify(`pairing:${Date.now()}`, 'Steward: pairing request', message).catch((e) => console.warn('notification failed', e));
  };
}
