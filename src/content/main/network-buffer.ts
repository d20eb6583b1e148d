import { NetworkWire, PageChannelPush } from '../../protocol/page-channel.ts';
import type { NetworkRecord } from '../../protocol/snapshot.ts';
import { boundJson, redactUrl } from './network-bounds.ts';

/**
 * Isolated world: the last N network records the main world reported, for fusion. The main world
 * is the page's, so each record is validated again here — shape (zod), same origin, size,
 * secrets — and kept as plain data. Pure (no chrome.*, no DOM), so it is unit-testable.
 */
export interface NetworkBufferOptions {
  /** The frame's origin (`location.origin`): records from anywhere else are dropped. */
  origin: string;
  /** How many records to keep (oldest dropped first). */
  capacity?: number;
  now?: () => string;
}

export class NetworkBuffer {
  private readonly items: NetworkRecord[] = [];
  private readonly listeners = new Set<(record: NetworkRecord) => void>();
  private readonly capacity: number;
  private readonly now: () => string;
  /** Records refused (bad shape, other origin): a hostile page shows up here. */
  rejected = 0;

  constructor(private readonly options: NetworkBufferOptions) {
    this.capacity = Math.max(1, Math.min(options.capacity ?? 50, 500));
    this.now = options.now ?? (() => new Date().toISOString());
  }

  /** Takes one message from the private port; anything but a valid `network` push is ignored. */
  acceptEvent(data: unknown): NetworkRecord | undefined {
    const parsed = PageChannelPush.safeParse(data);
    if (!parsed.success || parsed.data.type !== 'network') return undefined;
    return this.accept(parsed.data.record);
  }

  /** Validates and stores one record; returns what was stored, or undefined when refused. */
  accept(wire: unknown): NetworkRecord | undefined {
    const parsed = NetworkWire.safeParse(wire);
    const url = parsed.success ? redactUrl(parsed.data.url) : undefined;
    if (!parsed.success || !url || new URL(url).origin !== this.options.origin) {
      this.rejected++;
      return undefined;
    }
    const method = parsed.data.method.toUpperCase();
    const bounded = boundJson(parsed.data.json);
    const record: NetworkRecord = {
      url,
      method: /^[A-Z]{1,16}$/.test(method) ? method : 'GET',
      status: parsed.data.status,
      json: bounded.json,
      truncated: parsed.data.truncated || bounded.truncated,
      at: this.now(),
    };
    this.items.push(record);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
    for (const l of this.listeners) l(record);
    return record;
  }

  /** Oldest first; copies, so callers cannot change the buffer. */
  records(): NetworkRecord[] {
    return this.items.map((r) => ({ ...r }));
  }

  /** Called for each stored record (e.g. to schedule a fresh observation). Returns an unsubscribe. */
  onRecord(listener: (record: NetworkRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The document changed (a new page in this frame): earlier responses describe another page. */
  clear(): void {
    this.items.length = 0;
  }
}

/** Feeds a buffer from the private port (both WebMCP modes: the port always exists). */
export function listenForNetworkRecords(port: MessagePort, buffer: NetworkBuffer): void {
  port.addEventListener('message', (event: MessageEvent) => buffer.acceptEvent(event.data));
  port.start();
}
