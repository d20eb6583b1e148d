import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it, vi } from 'vitest';
import { ApprovalAnnouncer, chromeAnnounceApis, type AnnounceApis } from '../../../../src/background/pipeline/approval-announcer.ts';
import type { ApprovalRequest } from '../../../../src/protocol/approval.ts';
import type { PanelPush } from '../../../../src/protocol/panel-channel.ts';

const card = {
  request_id: 'apreq_7',
  agent_id: 'agent:copilot',
  action: 'orders.cancel',
  via: 'adapter',
  resource: { type: 'order', id: 'ORD-1024' },
  origin: 'http://localhost:4100',
} as unknown as ApprovalRequest;

function setUp(openPanels: number, pending: number[]) {
  const pushes: PanelPush[] = [];
  const apis = { setBadge: vi.fn(async () => undefined), notify: vi.fn(async () => undefined), clear: vi.fn(async () => undefined) } satisfies AnnounceApis;
  const counts = [...pending];
  const announcer = new ApprovalAnnouncer({ count: openPanels, push: (m) => pushes.push(m) }, async () => counts.shift() ?? 0, apis);
  return { announcer, apis, pushes };
}

describe('ApprovalAnnouncer', () => {
  it('with no panel open: a desktop notification built from the card, and the badge counts it', async () => {
    const { announcer, apis, pushes } = setUp(0, [1]);
    announcer.queued(card);
    await announcer.refreshBadge();
    expect(apis.notify).toHaveBeenCalledWith('approval:apreq_7', 'Steward: approval needed', expect.stringContaining('orders.cancel on order ORD-1024 (http://localhost:4100, via adapter)'));
    expect(apis.setBadge).toHaveBeenNthCalledWith(1, '1');
    expect(pushes).toContainEqual({ type: 'panel/approvals-changed' });
  });

  it('with a panel open: pushed to the panel, no notification', async () => {
    const { announcer, apis, pushes } = setUp(1, [2]);
    announcer.queued(card);
    await announcer.refreshBadge();
    expect(apis.notify).not.toHaveBeenCalled();
    expect(pushes).toEqual([{ type: 'panel/approvals-changed' }, { type: 'panel/audit-changed' }]);
    expect(apis.setBadge).toHaveBeenNthCalledWith(1, '2');
  });

  it('when settled: the notification goes, the badge empties at zero', async () => {
    const { announcer, apis } = setUp(0, [0]);
    announcer.settled('apreq_7');
    await announcer.refreshBadge();
    expect(apis.clear).toHaveBeenCalledWith('approval:apreq_7');
    expect(apis.setBadge).toHaveBeenNthCalledWith(1, '');
  });

  it('badge updates land in order, so an older count never overwrites a newer one', async () => {
    const order: string[] = [];
    const apis: AnnounceApis = {
      setBadge: async (t) => {
        await new Promise((r) => setTimeout(r, t === '3' ? 20 : 0));
        order.push(t);
      },
      notify: async () => undefined,
      clear: async () => undefined,
    };
    const counts = [3, 1];
    const a = new ApprovalAnnouncer({ count: 1, push: () => undefined }, async () => counts.shift()!, apis);
    await Promise.all([a.refreshBadge(), a.refreshBadge()]);
    expect(order).toEqual(['3', '1']);
  });
});

describe('the announcements in the browser (chromeAnnounceApis)', () => {
  let pending = 0;
  const announcerInBrowser = (openPanels: number) => new ApprovalAnnouncer({ count: openPanels, push: () => undefined }, async () => pending, chromeAnnounceApis());

  /** One card queued while no panel is open, its notification shown. */
  async function announcedWithNoPanelOpen() {
    pending = 1;
    const announcer = announcerInBrowser(0);
    announcer.queued(card);
    await announcer.refreshBadge();
    await vi.waitFor(() => expect(fakeBrowser.notifications.getAllCreateOptions()).toHaveProperty(['approval:apreq_7']));
    return announcer;
  }

  it('with no panel open: a notification that stays until decided, built from the card, and the badge in red', async () => {
    await announcedWithNoPanelOpen();
    expect(fakeBrowser.notifications.getAllCreateOptions()).toEqual({
      'approval:apreq_7': {
        type: 'basic',
        iconUrl: fakeBrowser.runtime.getURL('icons/icon-128.png'),
        title: 'Steward: approval needed',
        message: expect.stringContaining('orders.cancel on order ORD-1024 (http://localhost:4100, via adapter)'),
        requireInteraction: true,
        priority: 2,
      },
    });
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    expect(await fakeBrowser.action.getBadgeBackgroundColor({})).toEqual([0xb3, 0x26, 0x1e, 255]);
  });

  it('with a panel open: no notification, the badge still counts', async () => {
    pending = 2;
    const announcer = announcerInBrowser(1);
    announcer.queued(card);
    await announcer.refreshBadge();
    expect(fakeBrowser.notifications.getAllCreateOptions()).toEqual({});
    expect(await fakeBrowser.action.getBadgeText({})).toBe('2');
  });

  it('when settled: the notification is cleared and the badge emptied', async () => {
    const announcer = await announcedWithNoPanelOpen();
    pending = 0;
    announcer.settled('apreq_7');
    await announcer.refreshBadge();
    await vi.waitFor(() => expect(fakeBrowser.notifications.getAllCreateOptions()).toEqual({}));
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });
});
