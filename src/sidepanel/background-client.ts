import { z } from 'zod';
import { BackgroundToPanel, Reply, TabToolsResponse, type PanelToBackground } from '../protocol/messages.ts';
import { ToolRunOutcome } from '../protocol/webmcp.ts';

export class BackgroundError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function request<T extends z.ZodType>(message: PanelToBackground, data: T): Promise<z.infer<T>> {
  const raw: unknown = await chrome.runtime.sendMessage(message);
  const reply = Reply(data).safeParse(raw);
  if (!reply.success) throw new BackgroundError('INVALID_REPLY', 'The service worker answered with something unexpected.');
  const parsed = reply.data as { ok: true; data: z.infer<T> } | { ok: false; error: { code: string; message: string } };
  if (!parsed.ok) throw new BackgroundError(parsed.error.code, parsed.error.message);
  return parsed.data;
}

export const getTabTools = (tabId: number) => request({ type: 'panel/get-tab-tools', tabId }, TabToolsResponse);

export const runTool = (tabId: number, frameId: number, name: string, input: Record<string, unknown>) =>
  request({ type: 'panel/run-tool', tabId, frameId, name, input }, ToolRunOutcome);

/** Live pushes from the service worker; reconnects if the worker restarts. */
export function subscribe(onMessage: (message: BackgroundToPanel) => void): () => void {
  let port: chrome.runtime.Port | undefined;
  let closed = false;
  const connect = () => {
    port = chrome.runtime.connect({ name: 'panel' });
    port.onMessage.addListener((raw: unknown) => {
      const parsed = BackgroundToPanel.safeParse(raw);
      if (parsed.success) onMessage(parsed.data);
    });
    port.onDisconnect.addListener(() => {
      if (!closed) setTimeout(connect, 250);
    });
  };
  connect();
  return () => {
    closed = true;
    port?.disconnect();
  };
}
