import { channelClient, refuse, type ChannelClient, type Data, type Handlers, type Reply, type ReplyError } from '../../protocol/channel.ts';
import { answerCorrelated, correlator, type Correlator } from '../../protocol/correlated-channel.ts';
import { AskEnvelope, PageChannelAsks, PageChannelPush, PageChannelRequests, PortOffer } from '../../protocol/page-channel.ts';
import { HANDSHAKE_FROM_ISOLATED, HANDSHAKE_FROM_MAIN } from '../../protocol/page-channel-names.ts';
import { ToolExecutionError, thrownError, type ToolSource } from './tool-source.ts';
import type { RawTool } from '../../webmcp/normalize.ts';
import { PAGE_DEADLINES } from '../../protocol/deadlines.ts';

const LIST_TIMEOUT_MS = PAGE_DEADLINES.tool_list_ms;
/** A run's own deadline comes from the caller (src/content/worker-channel.ts); without one, this frees a reply slot that never filled. */
const RUN_TIMEOUT_MS = PAGE_DEADLINES.tool_run_ms;

/** The codes a page's refusal may carry through; anything else it says is an execution failure. */
const TOOL_CODES = new Set<string>(['TOOL_NOT_FOUND', 'INVALID_INPUT', 'EXECUTION_FAILED', 'TIMEOUT']);

/** A refusal from the main world (page data) as a tool error: known code or EXECUTION_FAILED, bounded message. */
function toolError(error: ReplyError): ToolExecutionError {
  if (error.code === 'INVALID_REPLY') return new ToolExecutionError('EXECUTION_FAILED', `The polyfill answered with something that is not a result: ${error.message}`.slice(0, 4000));
  if (TOOL_CODES.has(error.code)) return new ToolExecutionError(error.code as ToolExecutionError['code'], error.message.slice(0, 4000));
  return new ToolExecutionError('EXECUTION_FAILED', `${error.code.slice(0, 200)}: ${error.message}`.slice(0, 4000));
}

/**
 * Where the page's continuation calls go (the service worker, which alone decides): a token for
 * an agent's run, a token redeemed. Each answers the worker's reply, or undefined when the worker
 * could not be reached.
 */
export interface ContinuationDesk {
  token(run_id: string): Promise<Reply<{ token: string }> | undefined>;
  resume(token: string): Promise<Reply<{ tool: string }> | undefined>;
}

const unreachable = refuse('STEWARD_UNAVAILABLE', 'Steward could not be reached.', true);

/**
 * Tools of the polyfill that the main-world script installed, reached over the private port.
 * Everything arriving on the port is page-controlled data: each answer is parsed with its
 * request's reply schema, and pushes that do not fit are dropped. The page's continuation calls
 * (its asks) reach the service worker only for the agents' runs going here now.
 */
export class PolyfillToolSource implements ToolSource {
  readonly api = 'polyfill' as const;
  private readonly listeners: Array<() => void> = [];
  private readonly replies: Correlator<PageChannelRequests>;
  private readonly client: ChannelClient<PageChannelRequests>;
  /** The agents' runs this frame has going now: only these may ask for a continuation token. */
  private readonly agentRuns = new Set<string>();
  private readonly asks: Handlers<PageChannelAsks, void>;

  constructor(
    private readonly port: MessagePort,
    desk?: ContinuationDesk,
  ) {
    this.asks = {
      token: async ({ run_id }) => {
        if (!desk) return refuse('NOT_SUPPORTED', 'Tool continuations are not available here.');
        if (!this.agentRuns.has(run_id)) return refuse('NOT_ALLOWED', 'No agent’s call is running with that id in this frame.');
        return (await desk.token(run_id)) ?? unreachable;
      },
      resume: async ({ token }) => (desk ? ((await desk.resume(token)) ?? unreachable) : refuse('NOT_SUPPORTED', 'Tool continuations are not available here.')),
    };
    this.replies = correlator<PageChannelRequests>(
      (request) => port.postMessage(request),
      (message) => (message.type === 'run' ? (message.deadline_ms ?? RUN_TIMEOUT_MS) + PAGE_DEADLINES.reply_grace_ms : LIST_TIMEOUT_MS),
      (_, ms) => new ToolExecutionError('TIMEOUT', `The page's polyfill did not answer within ${ms} ms.`),
    );
    this.client = channelClient(PageChannelRequests, (message) => this.replies.send(message));
    port.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
    port.start();
  }

  private receive(data: unknown): void {
    if (this.replies.receive(data)) return;
    const ask = AskEnvelope.safeParse(data);
    if (ask.success) {
      void answerCorrelated(PageChannelAsks, this.asks, ask.data.ask, undefined, (answer) => this.port.postMessage({ answer })).catch(() => undefined);
      return;
    }
    // Network records share the port; NetworkBuffer takes them.
    const push = PageChannelPush.safeParse(data);
    if (push.success && push.data.type === 'changed') for (const l of this.listeners) l();
  }

  /** The page's tools; a page that cannot list them has none. */
  async list(): Promise<RawTool[]> {
    const reply = await this.client.call('list', {});
    if (reply.ok) return reply.data.tools as RawTool[];
    if (reply.error.code === 'INVALID_REPLY') throw toolError(reply.error);
    return [];
  }

  async run(name: string, input: Record<string, unknown>, deadlineMs?: number, runId?: string) {
    return this.asAgentRun(runId, () => this.client.call('run', { name, input, ...(deadlineMs ? { deadline_ms: deadlineMs } : {}), ...(runId ? { run_id: runId } : {}) }));
  }

  async resumed(token: string, name: string, input: Record<string, unknown>, runId: string, deadlineMs?: number) {
    return this.asAgentRun(runId, () => this.client.call('resumed', { token, name, input, run_id: runId, ...(deadlineMs ? { deadline_ms: deadlineMs } : {}) }));
  }

  async cancel(runId: string): Promise<boolean> {
    if (!this.agentRuns.has(runId)) return false;
    const reply = await this.client.call('cancel', { run_id: runId });
    return reply.ok && reply.data.cancelled;
  }

  /** One run on the port, known as the agent's run `runId` while it goes. */
  private async asAgentRun(runId: string | undefined, call: () => Promise<Reply<Data<PageChannelRequests, 'run'>>>) {
    if (runId) this.agentRuns.add(runId);
    try {
      const reply = await call();
      if (!reply.ok) throw toolError(reply.error);
      if ('thrown' in reply.data) throw thrownError(reply.data.thrown);
      return reply.data;
    } finally {
      if (runId) this.agentRuns.delete(runId);
    }
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
export function receivePageChannelPort(onPort: (port: MessagePort, offer: PortOffer) => void): void {
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

/** How long the isolated world waits for the main world to say what a tool threw. */
const THROWN_LOOKUP_MS = 1_000;

/**
 * With native WebMCP: asks the main world what a tool threw (Chrome passes on only a generic
 * error). The answer is the page's, like the throw itself; none in time means none.
 */
export function thrownLookup(port: MessagePort): (name: string, since: number) => Promise<{ code?: string | undefined; message: string; truncated: boolean } | undefined> {
  const replies = correlator<PageChannelRequests>(
    (request) => port.postMessage(request),
    () => THROWN_LOOKUP_MS,
    (_, ms) => new Error(`The main world did not answer within ${ms} ms.`),
  );
  const client = channelClient(PageChannelRequests, (message) => replies.send(message));
  port.addEventListener('message', (event: MessageEvent) => replies.receive(event.data));
  port.start();
  return async (name, since) => {
    const reply = await client.call('thrown', { name, since });
    return reply.ok ? (reply.data.thrown ?? undefined) : undefined;
  };
}
