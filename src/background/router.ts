import { ContentToBackground, PanelToBackground, type TabToolsResponse } from '../protocol/messages.ts';
import { classifySender, type SenderKind } from './senders.ts';
import type { PanelRunRequest } from './tools/run-from-panel.ts';
import type { ToolRunOutcome } from '../protocol/webmcp.ts';
import { judgeReportedTool } from '../webmcp/normalize.ts';
import type { ToolStore } from './tools/store.ts';
import type { PanelPorts } from './panel/panel-ports.ts';
import type { ObservationService } from './observation/service.ts';
import { isControlMessage } from './panel/router.ts';
import type { SiteAccess } from './sites/site-access.ts';

export const PANEL_PATH = 'src/sidepanel/index.html';

type Reply = (response: unknown) => void;

const refuse = (code: string, message: string) => ({ ok: false, error: { code, message, retryable: false } });

/** Control messages (approvals, tokens, audit, agent): routed by type, the handler checks the sender itself. */
export type ControlRoute = (message: unknown, who: SenderKind) => Promise<unknown>;

/** The service worker's single message router: every message is checked by sender, then by schema. */
export interface RouterDeps {
  store: ToolStore;
  panels: PanelPorts;
  observation: ObservationService;
  sites: Pick<SiteAccess, 'ready' | 'isAllowed'> & Partial<Pick<SiteAccess, 'noteWebMcpApi'>>;
  control?: ControlRoute;
  /** `panel/run-tool`: the person's Run, through the pipeline (src/background/tools/run-from-panel.ts). */
  runTool?: (request: PanelRunRequest) => Promise<ToolRunOutcome>;
}

export function createRouter({ store, panels, observation, sites, control, runTool }: RouterDeps) {
  const whoSent = (sender: chrome.runtime.MessageSender): SenderKind =>
    classifySender(sender, chrome.runtime.id, chrome.runtime.getURL(PANEL_PATH).replace(/index\.html$/, ''));

  async function fromContent(who: Extract<SenderKind, { kind: 'content' }>, message: unknown): Promise<unknown> {
    const parsed = ContentToBackground.safeParse(message);
    if (!parsed.success) return refuse('INVALID_MESSAGE', parsed.error.message);
    await sites.ready;
    // A page whose site was removed keeps its scripts until it reloads; what they say is not heard.
    if (!sites.isAllowed(who.origin)) return refuse('SITE_NOT_ALLOWED', `Steward is not allowed on ${who.origin}.`);
    void sites.noteWebMcpApi?.(parsed.data.api, who.frameId === 0);
    await store.ready;
    const { tabId, frameId, documentId, origin, url } = who;
    store.registry.report(
      { tabId, frameId, ...(documentId ? { documentId } : {}), origin, url, api: parsed.data.api, tools: parsed.data.tools.map(judgeReportedTool) },
      new Date(),
    );
    await store.save();
    panels.broadcast({ type: 'panel/tools-changed', tabId });
    return { ok: true, data: null };
  }

  async function fromPanel(message: unknown): Promise<unknown> {
    const parsed = PanelToBackground.safeParse(message);
    if (!parsed.success) return refuse('INVALID_MESSAGE', parsed.error.message);
    await store.ready;
    const request = parsed.data;
    switch (request.type) {
      case 'panel/get-tab-tools': {
        const data: TabToolsResponse = { frames: store.registry.tab(request.tabId) };
        return { ok: true, data };
      }
      case 'panel/run-tool':
        if (!runTool) return refuse('NOT_READY', 'Tools run only through the pipeline, which is not wired here.');
        return { ok: true, data: await runTool(request) };
      case 'panel/snapshot-tab':
        return observation.observeTab(request.tabId, { full: request.full === true });
      case 'panel/query-tab':
        return observation.queryTab(request.tabId, request.query, request.documentToken);
    }
  }

  function onMessage(message: unknown, sender: chrome.runtime.MessageSender, reply: Reply): boolean {
    const who = whoSent(sender);
    let work: Promise<unknown>;
    // Control messages from anyone but the side panel are refused FORBIDDEN_SENDER there.
    if (control && isControlMessage(message)) work = control(message, who);
    else if (who.kind === 'content') work = fromContent(who, message);
    else if (who.kind === 'panel') work = fromPanel(message);
    else {
      reply(refuse('FORBIDDEN_SENDER', 'Messages are accepted only from Steward’s own content scripts and side panel.'));
      return false;
    }
    work.then(reply, (error: unknown) => reply({ ok: false, error: { code: 'INTERNAL', message: String(error), retryable: true } }));
    return true;
  }

  function onConnect(port: chrome.runtime.Port): void {
    if (port.name !== 'panel' || !port.sender || whoSent(port.sender).kind !== 'panel') {
      port.disconnect();
      return;
    }
    panels.add(port);
  }

  return { onMessage, onConnect };
}
