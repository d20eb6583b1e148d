import type { ControlPush } from '../protocol/control-messages.ts';
import { PanelPorts } from './panel-ports.ts';

/**
 * The open side panels (their `panel` ports, sender-checked by the router), with what the control
 * room needs on top of tool pushes: whether any panel is open (else a desktop notification is
 * the only way to reach the person) and the ControlPush messages that keep its views live.
 */
export class ControlPanels extends PanelPorts {
  private readonly open = new Set<chrome.runtime.Port>();

  override add(port: chrome.runtime.Port): void {
    super.add(port);
    this.open.add(port);
    port.onDisconnect.addListener(() => this.open.delete(port));
  }

  get count(): number {
    return this.open.size;
  }

  push(message: ControlPush): void {
    for (const port of this.open) {
      try {
        port.postMessage(message);
      } catch {
        this.open.delete(port);
      }
    }
  }
}
