import { t } from '../../base/i18n.ts';
import type { ApprovalNotifier } from '../../pipeline/ports.ts';
import type { ApprovalRequest } from '../../protocol/approval.ts';
import type { PanelPush } from '../../protocol/panel-channel.ts';
import { browser, chromeOnly } from '../core/browser.ts';

/**
 * How a waiting approval reaches the person: a push to open side panels, the toolbar badge (the
 * number of pending approvals), and — when no panel is open — a desktop notification built from
 * the card itself (never from an agent's summary). Deciding still happens only in the panel.
 */

export interface AnnounceApis {
  setBadge(text: string): Promise<void>;
  notify(id: string, title: string, message: string): Promise<void>;
  clear(id: string): Promise<void>;
}

export const chromeAnnounceApis = (): AnnounceApis => ({
  async setBadge(text) {
    await browser.action.setBadgeBackgroundColor({ color: '#b3261e' });
    await browser.action.setBadgeText({ text });
  },
  async notify(id, title, message) {
    await chromeOnly.notifications.create(id, { type: 'basic', iconUrl: browser.runtime.getURL('icons/icon-128.png'), title, message, requireInteraction: true, priority: 2 });
  },
  clear: async (id) => {
    await browser.notifications.clear(id);
  },
});

const notificationId = (requestId: string) => `approval:${requestId}`;

function cardSentence(r: Pick<ApprovalRequest, 'agent_id' | 'action' | 'resource' | 'origin' | 'via'>): string {
  return t('notify_message', r.agent_id, r.action, r.resource.type, r.resource.id, r.origin, r.via).slice(0, 500);
}

export class ApprovalAnnouncer implements ApprovalNotifier {
  private badge: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly panels: { readonly count: number; push(message: PanelPush): void },
    /** How many approvals are pending now (late-bound: the queue exists once the pipeline does). */
    private readonly pendingCount: () => Promise<number>,
    private readonly apis: AnnounceApis,
  ) {}

  queued(request: ApprovalRequest): void {
    this.panels.push({ type: 'panel/approvals-changed' });
    this.panels.push({ type: 'panel/audit-changed' });
    void this.refreshBadge();
    if (this.panels.count === 0) {
      this.apis.notify(notificationId(request.request_id), t('notify_title'), cardSentence(request)).catch((e) => console.warn('notification failed', e));
    }
  }

  settled(requestId: string): void {
    this.panels.push({ type: 'panel/approvals-changed' });
    this.panels.push({ type: 'panel/audit-changed' });
    void this.refreshBadge();
    this.apis.clear(notificationId(requestId)).catch(() => undefined);
  }

  /** Badge = pending approvals; updates are serialised so an older count never lands last. */
  refreshBadge(): Promise<void> {
    const next = this.badge.then(async () => {
      const n = await this.pendingCount();
      await this.apis.setBadge(n > 0 ? String(n) : '');
    });
    this.badge = next.catch((e) => console.warn('badge update failed', e));
    return next.catch(() => undefined);
  }
}
