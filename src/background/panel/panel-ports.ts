import type { BackgroundToPanel } from '../../protocol/messages.ts';

/** Open side panels, for pushing changes to them. */
export class PanelPorts {
  private readonly ports = new Set<chrome.runtime.Port>();

  add(port: chrome.runtime.Port): void {
    this.ports.add(port);
    port.onDisconnect.addListener(() => this.ports.delete(port));
  }

  /** How many panels are open. */
  get count(): number {
    return this.ports.size;
  }

  broadcast(message: BackgroundToPanel): void {
    this.post(message);
  }

  /** Sends to every open panel; a port that can no longer take messages is forgotten. */
  protected post(message: unknown): void {
    for (const port of this.ports) {
      try {
        port.postMessage(message);
      } catch {
        this.ports.delete(port);
      }
    }
  }
}
