import type { PanelPush } from '../../protocol/panel-channel.ts';

/** What the worker needs of a panel's port (chrome's and the polyfill's ports both fit). */
export interface PanelPort {
  postMessage(message: unknown): void;
  onDisconnect: { addListener(listener: () => void): void };
}

/**
 * The open side panels (their PANEL_PORT ports, sender-checked in src/background/core/channels.ts):
 * whether any is open (`count`: else a desktop notification is the only way to reach the
 * person) and the pushes that keep their views live.
 */
export class OpenPanels {
  private readonly ports = new Set<PanelPort>();

  add(port: PanelPort): void {
    this.ports.add(port);
    port.onDisconnect.addListener(() => this.ports.delete(port));
  }

  get count(): number {
    return this.ports.size;
  }

  /** Sends to every open panel; a port that can no longer take messages is forgotten. */
  push(message: PanelPush): void {
    for (const port of this.ports) {
      try {
        port.postMessage(message);
      } catch {
        this.ports.delete(port);
      }
    }
  }
}
