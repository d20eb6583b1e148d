import { dispatch, ok, refuse, type Handlers, type Reply } from '../../protocol/channel.ts';
import { ContentReports } from '../../protocol/content-channel.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import type { TabPresence } from '../../protocol/presence.ts';
import { judgeReportedTool } from '../../webmcp/normalize.ts';
import type { ContentSender } from '../core/senders.ts';
import type { SiteAccess } from '../sites/site-access.ts';
import type { ToolStore } from '../tools/store.ts';
import type { ContinuationBook } from '../../webmcp/continuations.ts';

/**
 * What Steward's content scripts report (src/protocol/content-channel.ts). The site is checked
 * before anything is read: a page whose site was removed keeps its scripts until it reloads, and
 * what they say is not heard.
 */
export interface ContentReportDeps {
  store: Pick<ToolStore, 'ready' | 'registry' | 'save'>;
  sites: Pick<SiteAccess, 'ready' | 'isAllowed'> & Partial<Pick<SiteAccess, 'noteWebMcpApi'>>;
  push: (message: PanelPush) => void;
  /** Who acts on a tab, and the person's Stop from Steward's indicator on it (src/background/presence/). */
  presence?: {
    of(tabId: number): Promise<TabPresence | null>;
    stop(tabId: number, agentId: string): Promise<boolean>;
  };
  /** The agents' tool calls a page may continue in its next document (src/webmcp/continuations.ts); none when absent. */
  continuations?: Pick<ContinuationBook, 'mint' | 'redeem'>;
}

const TOP_FRAME = 0;

/** The book's answer on the content channel: its refusal as NOT_ALLOWED, with its reason for the page. */
function answer<T extends object, D>(result: T | { refused: string } | undefined, data: (r: T) => D): Reply<D> {
  if (!result) return refuse('NOT_SUPPORTED', 'Tool continuations are not available.');
  if ('refused' in result) return refuse('NOT_ALLOWED', result.refused);
  return ok(data(result));
}

export function createContentReports({ store, sites, push, presence, continuations }: ContentReportDeps): (message: unknown, who: ContentSender) => Promise<Reply<unknown>> {
  const handlers: Handlers<ContentReports, ContentSender> = {
    'content/tools': async (report, who) => {
      void sites.noteWebMcpApi?.(report.api, who.frameId === 0);
      await store.ready;
      const { tabId, frameId, documentId, origin, url } = who;
      store.registry.report({ tabId, frameId, ...(documentId ? { documentId } : {}), origin, url, api: report.api, tools: report.tools.map(judgeReportedTool) }, new Date());
      await store.save();
      push({ type: 'panel/tools-changed', tabId });
      return ok(null);
    },
    // Steward's indicator lives in the top frame: a subframe (another site's, maybe) neither reads nor stops.
    'content/presence-ask': async (_m, who) => ok(who.frameId === TOP_FRAME && presence ? await presence.of(who.tabId) : null),
    'content/stop-agent': async ({ agent_id }, who) => ok({ stopped: who.frameId === TOP_FRAME && presence ? await presence.stop(who.tabId, agent_id) : false }),
    // Chrome's word on the sender (tab, document, origin) is what the book checks, never the page's.
    'content/tool-token': async ({ run_id }, who) => answer(await continuations?.mint(run_id, who), (r) => ({ token: r.token })),
    'content/tool-resume': async ({ token }, who) => answer(await continuations?.redeem(token, who), (r) => ({ tool: r.tool })),
  };

  return async (message, who) => {
    await sites.ready;
    if (!sites.isAllowed(who.origin)) return refuse('SITE_NOT_ALLOWED', `Steward is not allowed on ${who.origin}.`);
    return dispatch(ContentReports, handlers, message, who);
  };
}
