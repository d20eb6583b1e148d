import { BridgeEvent, PortOffer } from '../../protocol/page-bridge-channel.ts';
import { HANDSHAKE_FROM_ISOLATED, HANDSHAKE_FROM_MAIN } from '../../protocol/page-bridge-names.ts';
import { ToolExecutionError, type ToolSource } from './tool-source.ts';
import type { RawTool } from '../../webmcp/normalize.ts';
import { PAGE_DEADLINES } from '../../protocol/deadlines.ts';

type Pending = { resolve: (event: BridgeEvent) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

const LIST_TIMEOUT_MS = PAGE_DEADLINES.tool_list_ms;
/** A run's own deadline comes from the caller (src/content/worker-channel.ts); this only frees a reply slot that never filled. */
const RUN_TIMEOUT_MS = PAGE_DEADLINES.tool_run_ms;

/**
 * Tools of the polyfill that the main-world script installed, reached over the private port.
 * Everything arriving on the port is page-controlled data and is validated before use.
 */
export class BridgeToolSource implements ToolSource {
  readonly api = 'polyfill' as const;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly port: MessagePort) {
    port.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
    port.start();
  }

  private receive(data: unknown): void {
    const parsed = BridgeEvent.safeParse(data);
    if (!parsed.success) return;
    const event = parsed.data;
    if (event.op === 'network') return; // network records share the port; NetworkBuffer takes them
    if (event.op === 'changed') {
      for (const l of this.listeners) l();
      return;
    }
    if (event.id === undefined) return;
    const waiting = this.pending.get(event.id);
    if (!waiting) return;
    this.pending.delete(event.id);
    clearTimeout(waiting.timer);
    waiting.resolve(event);
  }

  private request(body: { op: 'list' } | { op: 'run'; name: string; input: Record<string, unknown> }, timeoutMs: number): Promise<BridgeEvent> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ToolExecutionError('TIMEOUT', `The page's polyfill did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.port.postMessage({ ...body, id });
    });
  }

  async list(): Promise<RawTool[]> {
    const event = await this.request({ op: 'list' }, LIST_TIMEOUT_MS);
    return event.op === 'tools' ? (event.tools as RawTool[]) : [];
  }

  async run(name: string, input: Record<string, unknown>) {
    const event = await this.request({ op: 'run', name, input }, RUN_TIMEOUT_MS);
    if (event.op === 'result') return { result: event.result, truncated: event.truncated };
    if (event.op === 'error') {
      if (event.name === 'NotFoundError') throw new ToolExecutionError('TOOL_NOT_FOUND', event.message);
      if (event.name === 'TypeError') throw new ToolExecutionError('INVALID_INPUT', event.message);
      throw new ToolExecutionError('EXECUTION_FAILED', `${event.name}: ${event.message}`);
    }
    throw new ToolExecutionError('EXECUTION_FAILED', 'The polyfill answered with something that is not a result.');
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}

/**
 * Takes the port the main world offers (see src/content/main/handshake.ts). Synchronous DOM
 * events at document_start: if the main world ran first, asking makes it offer again now.
 * Only the first port is ever accepted.
 */
export function receiveBridgePort(onPort: (port: MessagePort, offer: PortOffer) => void): void {
  let taken = false;
  const take = (event: Event) => {
    if (taken || !(event instanceof MessageEvent)) return;
    const port = event.ports[0];
    if (!port) return;
    taken = true;
    event.preventDefault(); // tells the main world, synchronously, that the port is taken
    document.removeEventListener(HANDSHAKE_FROM_MAIN, take);
    const offer = PortOffer.safeParse(event.data);
    onPort(port, offer.success ? offer.data : { polyfill: false });
  };
  document.addEventListener(HANDSHAKE_FROM_MAIN, take);
  document.dispatchEvent(new Event(HANDSHAKE_FROM_ISOLATED));
}
