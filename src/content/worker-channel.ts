import { dispatch, ok, refuse, type Data, type Handlers, type Message, type Payload, type Reply } from '../protocol/channel.ts';
import { ContentRequests, type ContentAct, type ContentReports } from '../protocol/content-channel.ts';
import type { ActReport } from '../protocol/messages.ts';
import type { ToolRunOutcome } from '../protocol/webmcp.ts';
import { PAGE_DEADLINES } from '../protocol/deadlines.ts';
import { DeadlineExceeded, withDeadline } from '../base/deadline.ts';
import { normalizeToolResult } from '../webmcp/normalize.ts';
import { ToolExecutionError, type ToolSource } from './webmcp/tool-source.ts';
import type { ObservationHost } from './observe/observation-host.ts';
import type { Runtime } from 'webextension-polyfill';
import { browser } from './browser.ts';

/**
 * The content script's side of the content channel (src/protocol/content-channel.ts): it answers
 * the worker's requests and sends it reports. Only Steward's own service worker may command a
 * content script: same extension, no tab.
 */
function fromServiceWorker(sender: { id?: string; tab?: unknown }): boolean {
  return sender.id === browser.runtime.id && sender.tab === undefined;
}

export function report<K extends keyof ContentReports & string>(type: K, payload: Payload<ContentReports, K>): void {
  browser.runtime.sendMessage({ ...payload, type } satisfies Message<ContentReports>).catch(() => {
    // The service worker may be restarting; the next change or a relist request resends.
  });
}

/** Settles with the tool's answer, or rejects with TIMEOUT once the deadline passed (the page may still be running it). */
function withinDeadline<T>(run: Promise<T>, deadlineMs: number): Promise<T> {
  return withDeadline(run, deadlineMs, "The page's tool").catch((error: unknown) => {
    if (error instanceof DeadlineExceeded) throw new ToolExecutionError('TIMEOUT', `The page's tool did not answer within ${deadlineMs} ms; it may still be running.`);
    throw error;
  });
}

async function runTool(source: ToolSource | undefined, name: string, input: Record<string, unknown>, deadlineMs: number = PAGE_DEADLINES.tool_run_ms): Promise<ToolRunOutcome> {
  if (!source) {
    return { ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'This frame exposes no WebMCP tools.', retryable: false } };
  }
  try {
    const { result, truncated } = await withinDeadline(source.run(name, input), deadlineMs);
    const normalized = normalizeToolResult(result);
    return { ok: true, result: normalized.result, truncated: Boolean(truncated) || normalized.truncated, untrusted: true };
  } catch (error) {
    if (error instanceof ToolExecutionError) {
      return { ok: false, error: { code: error.code, message: error.message, retryable: false } };
    }
    const e = error instanceof Error ? error : new Error(String(error));
    const code = e instanceof TypeError ? 'INVALID_INPUT' : 'EXECUTION_FAILED';
    return { ok: false, error: { code, message: `${e.name}: ${e.message}`.slice(0, 4000), retryable: false } };
  }
}

export interface FrameServices {
  source: () => ToolSource | undefined;
  relist: () => void;
  observation?: ObservationHost;
  /** DOM actions (src/content/act/), answered at once: a click may unload the page. */
  act?: (request: ContentAct) => ActReport;
  /** The page's recent same-origin JSON responses (bounded, already validated by the buffer). */
  network?: () => Data<ContentRequests, 'content/network'>['records'];
}

const notSupported = (what: string): Reply<never> => refuse('NOT_SUPPORTED', `This frame does not ${what}.`);

function frameHandlers(services: FrameServices): Handlers<ContentRequests, void> {
  return {
    'content/run-tool': async (request) => ok(await runTool(services.source(), request.name, request.input, request.deadline_ms)),
    'content/relist-tools': () => {
      services.relist();
      return ok(null);
    },
    'content/observe': (request) => services.observation?.observe(request) ?? notSupported('observe'),
    'content/query': (request) => services.observation?.query(request) ?? notSupported('observe'),
    'content/act': (request) => (services.act ? ok(services.act(request)) : notSupported('act')),
    'content/network': () => ok({ records: services.network?.() ?? [] }),
  };
}

/** Answers the worker's requests; anything from anyone else is not answered at all. */
export function listenToWorker(services: FrameServices): void {
  const handlers = frameHandlers(services);
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    // Anyone else gets no answer at all (undefined leaves the message to other listeners).
    if (!fromServiceWorker(sender)) return undefined;
    return Promise.resolve(dispatch(ContentRequests, handlers, message, undefined));
  });
}
