import { describe, expect, it, vi } from 'vitest';
import { createContentReports } from '../../../../src/background/pages/content-reports.ts';
import type { ContentSender } from '../../../../src/background/core/senders.ts';
import { ToolStore } from '../../../../src/background/tools/store.ts';
import { ContinuationBook } from '../../../../src/webmcp/continuations.ts';
import { checkoutChain } from '../../webmcp/checkout-chain.ts';

const SHOP = 'http://localhost:4100';
const sender = (over: Partial<ContentSender> = {}): ContentSender => ({ kind: 'content', tabId: 7, frameId: 0, documentId: 'doc-A', origin: SHOP, url: `${SHOP}/checkout`, ...over });

function reports(allowed = true) {
  const continuations = new ContinuationBook({ clock: Date.now, lifetimeMs: () => 60_000 });
  const handle = createContentReports({ store: new ToolStore(), sites: { ready: Promise.resolve(), isAllowed: () => allowed }, push: vi.fn(), continuations });
  return { handle, continuations };
}

describe('a page’s continuation calls, as the worker hears them from Steward’s content script', () => {
  it('a token is issued for the run Steward sent to that very document, judged by Chrome’s sender; the next document redeems it', async () => {
    const { handle, continuations } = reports();
    const chain = continuations.open(checkoutChain(SHOP, { action_id: 'act_1', idempotency_key: 'key-1' }));
    chain.started('run_AAAAAAAAAAAAAAAAAAAAAAAA', 'doc-A');
    const minted = await handle({ type: 'content/tool-token', run_id: 'run_AAAAAAAAAAAAAAAAAAAAAAAA' }, sender());
    expect(minted).toEqual({ ok: true, data: { token: expect.stringMatching(/^stwc_/) } });
    const token = (minted as { data: { token: string } }).data.token;
    // Another frame's document in the same tab asks for the same run: refused.
    expect(await handle({ type: 'content/tool-token', run_id: 'run_AAAAAAAAAAAAAAAAAAAAAAAA' }, sender({ frameId: 3, documentId: 'doc-frame' }))).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    chain.settled('run_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(await handle({ type: 'content/tool-resume', token }, sender({ documentId: 'doc-B', origin: 'http://127.0.0.1:4100' }))).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED', message: expect.stringContaining('cannot be redeemed by http://127.0.0.1:4100') },
    });
    expect(await handle({ type: 'content/tool-resume', token }, sender({ documentId: 'doc-B' }))).toEqual({ ok: true, data: { tool: 'checkout' } });
    expect(await handle({ type: 'content/tool-resume', token }, sender({ documentId: 'doc-C' }))).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
  });

  it('a site Steward is not allowed on is not heard at all, and a malformed token is refused before the book is asked', async () => {
    const { handle, continuations } = reports(false);
    const redeem = vi.spyOn(continuations, 'redeem');
    expect(await handle({ type: 'content/tool-resume', token: 'stwc_x' }, sender())).toMatchObject({ ok: false, error: { code: 'SITE_NOT_ALLOWED' } });
    const open = reports();
    expect(await open.handle({ type: 'content/tool-token', run_id: 'not a run id' }, sender())).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    expect(redeem).not.toHaveBeenCalled();
  });
});
