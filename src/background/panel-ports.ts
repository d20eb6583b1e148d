import type { BackgroundToPanel } from '../protocol/messages.ts';

/** Open side panels, for pushing changes to them. */
export class PanelPorts {
  private readonly ports = new Set<chrome.runtime.Port>();

  add(port: chrome.runtime.Port): void {
    this.ports.add(port);
    port.onDisconnect.addListener(() => this.ports.delete(port));
  }

  broadcast(message: BackgroundToPanel): void {
    for (const port of this.ports) {
      try {
        port.postMessage(message);
      } catch {
        this.ports.delete(port);
      }
    }
  }
}
