import { describe, expect, it } from 'vitest';
import { ContinuationBook, newRunId } from '../../../src/webmcp/continuations.ts';

const SHOP = 'http://localhost:4100';
const OTHER = 'http://127.0.0.1:4100';
const TAB = 7;

/** A book on a clock the test moves; tokens live 60 s. */
function book() {
  let now = 1_000_000;
  let n = 0;
  const b = new ContinuationBook({ clock: () => now, lifetimeMs: () => 60_000, newToken: () => `stwc_token${++n}` });
  return { book: b, advance: (ms: number) => (now += ms) };
}

/** Chrome's word on who asks: the document the run went to, in the agent's tab. */
const from = (documentId: string, origin = SHOP, tabId = TAB, frameId = 0) => ({ tabId, frameId, documentId, origin });

describe('continuation tokens (a tool call that goes on in the next document)', () => {
  it('are unguessable and URL-safe, and so are run ids', () => {
    const b = new ContinuationBook({ clock: Date.now, lifetimeMs: () => 60_000 });
    const tokens = ['act_1', 'act_2'].map((action_id) => {
      b.open({ action_id, tabId: TAB, origin: SHOP, tool: 'checkout' }).started(`run_${action_id}`, 'doc-A');
      return (b.mint(`run_${action_id}`, from('doc-A')) as { token: string }).token;
    });
    expect(tokens[0]).toMatch(/^stwc_[A-Za-z0-9_-]{32}$/);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect(newRunId()).toMatch(/^run_[A-Za-z0-9_-]{32}$/);
    expect(newRunId()).not.toBe(newRunId());
  });

  it('a running link gets one token (the same if it asks again); the next document of the same origin and tab redeems it once, and that document runs the next link', async () => {
    const { book: b } = book();
    const chain = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    chain.started('run_first', 'doc-billing');
    expect(b.mint('run_first', from('doc-billing'))).toEqual({ token: 'stwc_token1' });
    expect(b.mint('run_first', from('doc-billing'))).toEqual({ token: 'stwc_token1' });
    chain.settled('run_first');
    expect(chain.tokenOf('run_first')).toBe('stwc_token1');

    // The redemption may come while Steward still waits for the first link: it is kept for the wait.
    expect(b.redeem('stwc_token1', from('doc-shipping', SHOP, TAB, 0))).toEqual({ tool: 'checkout' });
    expect(await chain.redemption(5_000)).toEqual({ token: 'stwc_token1', frameId: 0, documentId: 'doc-shipping' });
    expect(b.redeem('stwc_token1', from('doc-shipping'))).toEqual({ refused: 'This continuation token was already redeemed.' });
  });

  it('refuses a token to anyone but the document the run was sent to, and once the run has ended', () => {
    const { book: b } = book();
    const chain = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    chain.started('run_first', 'doc-billing');
    expect(b.mint('run_first', from('doc-frame'))).toEqual({ refused: expect.stringContaining('Only the document that runs the tool') });
    expect(b.mint('run_first', from('doc-billing', SHOP, 99))).toHaveProperty('refused');
    expect(b.mint('run_made_up', from('doc-billing'))).toEqual({ refused: expect.stringContaining('No agent’s call') });
    chain.settled('run_first');
    expect(b.mint('run_first', from('doc-billing'))).toEqual({ refused: expect.stringContaining('has ended') });
  });

  it('refuses a redemption from another origin, another tab, or after the token expired; a made-up token is refused', async () => {
    const { book: b, advance } = book();
    const chain = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    chain.started('run_first', 'doc-billing');
    const { token } = b.mint('run_first', from('doc-billing')) as { token: string };
    expect(b.redeem(token, from('doc-evil', OTHER))).toEqual({ refused: `A continuation token of ${SHOP} cannot be redeemed by ${OTHER}.` });
    expect(b.redeem(token, from('doc-other-tab', SHOP, 8))).toEqual({ refused: expect.stringContaining('only in the tab') });
    expect(b.redeem('stwc_guessed', from('doc-shipping'))).toEqual({ refused: expect.stringContaining('not valid') });
    advance(60_001);
    expect(b.redeem(token, from('doc-shipping'))).toEqual({ refused: 'This continuation token has expired.' });
    chain.settled('run_first');
    expect(await chain.redemption(5_000)).toEqual({ ended: 'expired' });
  });

  it('a wait ends when nobody redeems the token within its budget', async () => {
    const { book: b } = book();
    const chain = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    chain.started('run_first', 'doc-billing');
    const { token } = b.mint('run_first', from('doc-billing')) as { token: string };
    chain.settled('run_first');
    expect(await chain.redemption(20)).toEqual({ ended: 'expired' });
    // Revoked with the wait: a late document cannot take it up.
    expect(b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
  });

  it('the person’s Stop ends a wait at once and revokes the token; nothing more can be issued', async () => {
    const { book: b } = book();
    const chain = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    chain.started('run_first', 'doc-billing');
    const { token } = b.mint('run_first', from('doc-billing')) as { token: string };
    chain.settled('run_first');
    const waiting = chain.redemption(60_000);
    expect(b.chainOf('act_1')?.live).toBe(true);
    chain.cancel();
    expect(await waiting).toEqual({ ended: 'cancelled' });
    expect(chain.cancelled).toBe(true);
    expect(b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
    chain.started('run_second', 'doc-shipping');
    expect(b.mint('run_second', from('doc-shipping'))).toEqual({ refused: expect.stringContaining('stopped') });
  });

  it('a chain closed when its call ended leaves nothing redeemable, and a new call’s chain does not accept the old token', () => {
    const { book: b } = book();
    const first = b.open({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout' });
    first.started('run_first', 'doc-billing');
    const { token } = b.mint('run_first', from('doc-billing')) as { token: string };
    b.close(first);
    expect(b.chainOf('act_1')).toBeUndefined();
    expect(b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
    const second = b.open({ action_id: 'act_2', tabId: TAB, origin: SHOP, tool: 'checkout' });
    second.started('run_second', 'doc-shipping');
    expect(b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
  });
});
