import { badgeFor, isCopilot, presenceByTab, type ActionOnTab, type RunOnTab } from '../../pipeline/presence.ts';
import type { TabPresence } from '../../protocol/presence.ts';
import type { SendToFrame } from '../core/messenger.ts';

/**
 * The worker's side of the visible agent (issue 30.4): after anything that may change who acts on
 * which tab (an action starting or ending, a card queued or decided, a co-pilot run changing, a
 * worker start), it re-derives the picture from records that survive a restart (presence.ts) and
 * draws it: each tab's toolbar badge, and Steward's indicator in the tab's top frame. The person's
 * Stop on that indicator comes back here (content-reports.ts) and stops the agent the way the side
 * panel does.
 */

export interface BadgeApis {
  set(tabId: number, badge: { text: string; color: string; title: string }): Promise<void>;
  /** Back to the global badge (the pending approvals' count). */
  clear(tabId: number): Promise<void>;
  /** The tabs badged before (kept across a worker restart), and remembering the new set. */
  badged(): Promise<number[]>;
  remember(tabIds: number[]): Promise<void>;
}

export interface AgentPresenceDeps {
  /** The journal's unfinished actions with their session's tab and their token's label. */
  actions(): Promise<ActionOnTab[]>;
  /** The co-pilot's run records. */
  runs(): Promise<RunOnTab[]>;
  send: SendToFrame;
  badge: BadgeApis;
  /** The panel's Stop for a co-pilot run (run-manager.ts). */
  stopRun(agentId: string): Promise<boolean>;
  /** The panel's Deny for the agent's actions on this tab that wait for the person, and no dispatch for those not yet dispatched. */
  stopActions(agentId: string, tabId: number): Promise<boolean>;
}

const TOP_FRAME = 0;

export class AgentPresence {
  private queue: Promise<unknown> = Promise.resolve();
  private pending = false;
  /** What each tab's top frame was last told (a new document asks again). */
  private readonly told = new Map<number, string>();

  constructor(private readonly deps: AgentPresenceDeps) {}

  /** Re-derives and redraws; calls made while one runs fold into one more run after it. */
  refresh(): void {
    if (this.pending) return;
    this.pending = true;
    this.queue = this.queue
      .then(() => {
        this.pending = false;
        return this.redraw();
      })
      .catch((error: unknown) => console.warn('Steward could not show who acts on which tab', error));
  }

  async of(tabId: number): Promise<TabPresence | null> {
    return (await this.current()).get(tabId) ?? null;
  }

  /** The person's Stop from the page: only for an agent that acts on that very tab. */
  async stop(tabId: number, agentId: string): Promise<boolean> {
    const presence = await this.of(tabId);
    if (!presence?.agents.some((a) => a.agent_id === agentId)) return false;
    const stopped = isCopilot(agentId) ? await this.deps.stopRun(agentId) : await this.deps.stopActions(agentId, tabId);
    this.refresh();
    return stopped;
  }

  private async current(): Promise<Map<number, TabPresence>> {
    const [actions, runs] = await Promise.all([this.deps.actions(), this.deps.runs()]);
    return presenceByTab(actions, runs);
  }

  private async redraw(): Promise<void> {
    const now = await this.current();
    const before = await this.deps.badge.badged();
    for (const [tabId, presence] of now) await this.deps.badge.set(tabId, badgeFor(presence)).catch(() => undefined);
    for (const tabId of before) if (!now.has(tabId)) await this.deps.badge.clear(tabId).catch(() => undefined);
    await this.deps.badge.remember([...now.keys()]);
    const tabs = new Set([...now.keys(), ...before, ...this.told.keys()]);
    for (const tabId of tabs) await this.tell(tabId, now.get(tabId) ?? null);
  }

  private async tell(tabId: number, presence: TabPresence | null): Promise<void> {
    const text = JSON.stringify(presence);
    if (this.told.get(tabId) === text) return;
    if (presence) this.told.set(tabId, text);
    else this.told.delete(tabId);
    // A tab without Steward's content script (a site not allowed, a page still loading) asks for itself when its script starts.
    await this.deps.send(tabId, TOP_FRAME, 'content/presence', { presence }).catch(() => undefined);
  }

  forgetTab(tabId: number): void {
    this.told.delete(tabId);
  }
}
