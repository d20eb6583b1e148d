import { z } from 'zod';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import { WAITING_COLOR, type RunOnTab } from '../../pipeline/presence.ts';
import { browser } from '../core/browser.ts';
import type { RunManager } from '../copilot/run-manager.ts';
import type { SendToFrame } from '../core/messenger.ts';
import type { SessionTabs } from '../core/sessions.ts';
import { AgentPresence, type BadgeApis } from './agent-presence.ts';

/** The visible agent on Chrome: per-tab badges through chrome.action, the records from the pipeline, the sessions and the co-pilot. */

const BADGED_KEY = 'presence.badged';
const DEFAULT_TITLE = 'Open Steward';
/** Why a card is withdrawn when the person presses Stop on the page (the audit's denial reason). */
const STOPPED_ON_PAGE = 'stopped by the person with Steward’s Stop on the page';

/** setBadgeText with a tab and `text: null` drops the tab's own text: the global one (pending approvals) shows again. */
type NullableBadgeText = (details: { tabId: number; text: string | null }) => Promise<void>;

const chromeBadge = (): BadgeApis => ({
  async set(tabId, { text, color, title }) {
    await browser.action.setBadgeBackgroundColor({ tabId, color });
    await browser.action.setBadgeText({ tabId, text });
    await browser.action.setTitle({ tabId, title });
  },
  async clear(tabId) {
    await (browser.action.setBadgeText as unknown as NullableBadgeText)({ tabId, text: null });
    await browser.action.setBadgeBackgroundColor({ tabId, color: WAITING_COLOR });
    await browser.action.setTitle({ tabId, title: DEFAULT_TITLE });
  },
  async badged() {
    const parsed = z.array(z.number().int()).safeParse((await browser.storage.session.get(BADGED_KEY))[BADGED_KEY]);
    return parsed.success ? parsed.data : [];
  },
  async remember(tabIds) {
    await browser.storage.session.set({ [BADGED_KEY]: tabIds });
  },
});

export interface ChromePresenceDeps {
  pipeline: () => Promise<Pipeline>;
  sessions: Pick<SessionTabs, 'tabOf'>;
  copilot: Pick<RunManager, 'runs' | 'stop'>;
  send: SendToFrame;
}

export function createChromePresence(deps: ChromePresenceDeps): AgentPresence {
  async function runs(): Promise<RunOnTab[]> {
    const reply = await deps.copilot.runs({});
    return reply.ok ? reply.data.runs.filter((r) => !r.end).map((r) => ({ agent_id: r.agent_id, tabId: r.tabId, status: r.status })) : [];
  }
  return new AgentPresence({
    actions: async () => {
      const unfinished = await (await deps.pipeline()).unfinishedActions();
      return Promise.all(
        unfinished.map(async ({ action, label }) => ({
          agent_id: action.agent_id,
          state: action.state,
          tabId: await deps.sessions.tabOf(action.context.session_id),
          input: action.request.input,
          ...(label ? { label } : {}),
        })),
      );
    },
    runs,
    send: deps.send,
    badge: chromeBadge(),
    async stopRun(agentId) {
      const run = (await runs()).find((r) => r.agent_id === agentId);
      const runId = run ? agentId.replace(/^agent:copilot-/, '') : undefined;
      return runId ? (await deps.copilot.stop({ run_id: runId })).ok : false;
    },
    async stopActions(agentId, tabId) {
      const pipeline = await deps.pipeline();
      return pipeline.stopAgentOnTab(agentId, async (sessionId) => (await deps.sessions.tabOf(sessionId)) === tabId, STOPPED_ON_PAGE);
    },
  });
}
