import { dispatch, ok, parseReply, refuse, type Data, type Handlers, type Message, type Payload, type Reply } from '../protocol/channel.ts';
import { ContentReports, ContentRequests, type ContentAct, type PageSettle } from '../protocol/content-channel.ts';
import type { TabPresence } from '../protocol/presence.ts';
import type { ActReport } from '../protocol/messages.ts';
import type { ToolSource } from './webmcp/tool-source.ts';
import { runResumed, runTool } from './webmcp/run-tool.ts';
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
  browser.runtime.sendMessage({ ...payload, type } as Message<ContentReports>).catch(() => {
    // The service worker may be restarting; the next change or a relist request resends.
  });
}

/** A report whose answer matters (parsed with its reply schema); undefined when the worker could not be reached. */
export async function ask<K extends keyof ContentReports & string>(type: K, payload: Payload<ContentReports, K>): Promise<Reply<Data<ContentReports, K>> | undefined> {
  try {
    return parseReply(ContentReports, type, await browser.runtime.sendMessage({ ...payload, type } as Message<ContentReports>));
  } catch {
    return undefined;
  }
}

export interface FrameServices {
  source: () => ToolSource | undefined;
  relist: () => void;
  observation?: ObservationHost;
  /** DOM actions (src/content/act/), answered once the page settled (or as soon as it starts to unload). */
  act?: (request: ContentAct) => Promise<ActReport>;
  /** Before an observation: answered once the page is quiet by its own events, or at the cap. */
  settle?: (capMs: number, quietMs?: number) => Promise<PageSettle>;
  /** The page's recent same-origin JSON responses (bounded, already validated by the buffer). */
  network?: () => Data<ContentRequests, 'content/network'>['records'];
  /** Who acts on this tab now (the top frame draws Steward's indicator). */
  presence?: (presence: TabPresence | null) => void;
}

const notSupported = (what: string): Reply<never> => refuse('NOT_SUPPORTED', `This frame does not ${what}.`);

function frameHandlers(services: FrameServices): Handlers<ContentRequests, void> {
  return {
    'content/run-tool': async (request) => ok(await runTool(services.source(), request.name, request.input, request.deadline_ms, request.run_id)),
    'content/run-resumed': async (request) => ok(await runResumed(services.source(), request, request.deadline_ms)),
    'content/cancel-tool': async ({ run_id }) =>
      ok({
        cancelled:
          (await services
            .source()
            ?.cancel(run_id)
            .catch(() => false)) ?? false,
      }),
    'content/relist-tools': () => {
      services.relist();
      return ok(null);
    },
    'content/observe': (request) => services.observation?.observe(request) ?? notSupported('observe'),
    'content/query': (request) => services.observation?.query(request) ?? notSupported('observe'),
    'content/act': async (request) => (services.act ? ok(await services.act(request)) : notSupported('act')),
    'content/settle': async (request) => (services.settle ? ok(await services.settle(request.cap_ms, request.quiet_ms)) : notSupported('settle')),
    'content/network': () => ok({ records: services.network?.() ?? [] }),
    'content/presence': (request) => {
      services.presence?.(request.presence);
      return ok(null);
    },
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
