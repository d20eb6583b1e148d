import type { z } from 'zod';
import { BackgroundToContent, type ActReport, type ContentAct, type ContentToBackground } from '../protocol/messages.ts';
import type { ToolRunOutcome } from '../protocol/webmcp.ts';
import { PAGE_DEADLINES } from '../protocol/deadlines.ts';
import { normalizeToolResult } from '../webmcp/normalize.ts';
import { ToolExecutionError, type ToolSource } from './webmcp/tool-source.ts';
import type { ObservationHost } from './observe/observation-host.ts';

/** Only Steward's own service worker may command a content script: same extension, no tab. */
function fromServiceWorker(sender: chrome.runtime.MessageSender): boolean {
  return sender.id === chrome.runtime.id && sender.tab === undefined;
}

export function sendToBackground(message: ContentToBackground): void {
  chrome.runtime.sendMessage(message).catch(() => {
    // The service worker may be restarting; the next change or a relist request resends.
  });
}

/** Settles with the tool's answer, or rejects with TIMEOUT once the deadline passed (the page may still be running it). */
function withinDeadline<T>(run: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolExecutionError('TIMEOUT', `The page's tool did not answer within ${deadlineMs} ms; it may still be running.`)), deadlineMs);
  });
  return Promise.race([run, expired]).finally(() => clearTimeout(timer));
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

/** The content script's single message router. */
export function listenToBackground(handlers: {
  source: () => ToolSource | undefined;
  relist: () => void;
  observation?: ObservationHost;
  /** Legacy DOM actions (src/content/act/), answered synchronously: a click may unload the page. */
  act?: (request: z.infer<typeof ContentAct>) => ActReport;
  /** The page's recent same-origin JSON responses (bounded, already validated by the buffer). */
  network?: () => unknown[];
}): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (!fromServiceWorker(sender)) return false;
    const parsed = BackgroundToContent.safeParse(message);
    if (!parsed.success) {
      sendResponse({ ok: false, error: { code: 'INVALID_MESSAGE', message: parsed.error.message, retryable: false } });
      return false;
    }
    const request = parsed.data;
    switch (request.type) {
      case 'content/network':
        sendResponse({ ok: true, data: { records: handlers.network?.() ?? [] } });
        return false;
      case 'content/relist-tools':
        handlers.relist();
        sendResponse({ ok: true });
        return false;
      case 'content/run-tool':
        void runTool(handlers.source(), request.name, request.input, request.deadline_ms).then(sendResponse);
        return true;
      case 'content/act':
        if (!handlers.act) sendResponse({ ok: false, error: { code: 'NOT_SUPPORTED', message: 'This frame does not act.', retryable: false } });
        else sendResponse({ ok: true, data: handlers.act(request) });
        return false;
      case 'content/observe':
      case 'content/query': {
        const host = handlers.observation;
        if (!host) sendResponse({ ok: false, error: { code: 'NOT_SUPPORTED', message: 'This frame does not observe.', retryable: false } });
        else sendResponse(request.type === 'content/observe' ? host.observe(request) : host.query(request));
        return false;
      }
    }
  });
}
