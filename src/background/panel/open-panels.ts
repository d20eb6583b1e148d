import type { ControlPush } from '../../protocol/control-messages.ts';
import { PanelPorts } from './panel-ports.ts';

/**
 * The open side panels (their `panel` ports, sender-checked by the router), with what the control
 * room needs on top of tool pushes: whether any panel is open (`count`: else a desktop
 * notification is the only way to reach the person) and the ControlPush messages that keep its
 * views live.
 */
export class ControlPanels extends PanelPorts {
  push(message: ControlPush): void {
    this.post(message);
  }
}
