import { describe, expect, it } from 'vitest';
import { ContinuationBook, newRunId, type ChainStart } from '../../../src/webmcp/continuations.ts';
import type { ContinuationStore } from '../../../src/webmcp/continuation-record.ts';
import { CHECKOUT_DESCRIPTION, checkoutChain } from './checkout-chain.ts';

const SHOP = 'http://localhost:4100';
const OTHER = 'http://127.0.0.1:4100';
const TAB = 7;

/** A chain's start for the page's `checkout` tool, planned on the shop's billing page. */
const opening = (action_id: string, idempotency_key = `key-${action_id}`): ChainStart =>
  checkoutChain(SHOP, { action_id, idempotency_key, tabId: TAB, planned: { description: CHECKOUT_DESCRIPTION, observed: { url: `${SHOP}/billing`, state_version: 'fp-4a5b6c' } } });

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
  it('are unguessable and URL-safe, and so are run ids', async () => {
    const b = new ContinuationBook({ clock: Date.now, lifetimeMs: () => 60_000 });
    const tokens = await Promise.all(
      ['act_1', 'act_2'].map(async (action_id) => {
        b.open(opening(action_id)).started(`run_${action_id}`, 'doc-A');
        return ((await b.mint(`run_${action_id}`, from('doc-A'))) as { token: string }).token;
      }),
    );
    expect(tokens[0]).toMatch(/^stwc_[A-Za-z0-9_-]{32}$/);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect(newRunId()).toMatch(/^run_[A-Za-z0-9_-]{32}$/);
    expect(newRunId()).not.toBe(newRunId());
  });

  it('a running link gets one token (the same if it asks again); the next document of the same origin and tab redeems it once, and that document runs the next link', async () => {
    const { book: b } = book();
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    expect(await b.mint('run_first', from('doc-billing'))).toEqual({ token: 'stwc_token1' });
    expect(await b.mint('run_first', from('doc-billing'))).toEqual({ token: 'stwc_token1' });
    chain.settled('run_first');
    expect(chain.tokenOf('run_first')).toBe('stwc_token1');

    // The redemption may come while Steward still waits for the first link: it is kept for the wait.
    expect(await b.redeem('stwc_token1', from('doc-shipping', SHOP, TAB, 0))).toEqual({ tool: 'checkout' });
    expect(await chain.redemption(5_000)).toEqual({ token: 'stwc_token1', frameId: 0, documentId: 'doc-shipping' });
    expect(await b.redeem('stwc_token1', from('doc-shipping'))).toEqual({ refused: 'This continuation token was already redeemed.' });
  });

  it('refuses a token to anyone but the document the run was sent to, and once the run has ended', async () => {
    const { book: b } = book();
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    expect(await b.mint('run_first', from('doc-frame'))).toEqual({ refused: expect.stringContaining('Only the document that runs the tool') });
    expect(await b.mint('run_first', from('doc-billing', SHOP, 99))).toHaveProperty('refused');
    expect(await b.mint('run_made_up', from('doc-billing'))).toEqual({ refused: expect.stringContaining('No agent’s call') });
    chain.settled('run_first');
    expect(await b.mint('run_first', from('doc-billing'))).toEqual({ refused: expect.stringContaining('has ended') });
  });

  it('refuses a redemption from another origin, another tab, or after the token expired; a made-up token is refused', async () => {
    const { book: b, advance } = book();
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    const { token } = (await b.mint('run_first', from('doc-billing'))) as { token: string };
    expect(await b.redeem(token, from('doc-evil', OTHER))).toEqual({ refused: `A continuation token of ${SHOP} cannot be redeemed by ${OTHER}.` });
    expect(await b.redeem(token, from('doc-other-tab', SHOP, 8))).toEqual({ refused: expect.stringContaining('only in the tab') });
    expect(await b.redeem('stwc_guessed', from('doc-shipping'))).toEqual({ refused: expect.stringContaining('not valid') });
    advance(60_001);
    expect(await b.redeem(token, from('doc-shipping'))).toEqual({ refused: 'This continuation token has expired.' });
    chain.settled('run_first');
    expect(await chain.redemption(5_000)).toEqual({ ended: 'expired' });
  });

  it('a wait ends when nobody redeems the token within its budget', async () => {
    const { book: b } = book();
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    const { token } = (await b.mint('run_first', from('doc-billing'))) as { token: string };
    chain.settled('run_first');
    expect(await chain.redemption(20)).toEqual({ ended: 'expired' });
    // Revoked with the wait: a late document cannot take it up.
    expect(await b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
  });

  it('the person’s Stop ends a wait at once and revokes the token; nothing more can be issued', async () => {
    const { book: b } = book();
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    const { token } = (await b.mint('run_first', from('doc-billing'))) as { token: string };
    chain.settled('run_first');
    const waiting = chain.redemption(60_000);
    expect(b.chainOf('act_1')?.live).toBe(true);
    chain.cancel();
    expect(await waiting).toEqual({ ended: 'cancelled' });
    expect(chain.cancelled).toBe(true);
    expect(await b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
    chain.started('run_second', 'doc-shipping');
    expect(await b.mint('run_second', from('doc-shipping'))).toEqual({ refused: expect.stringContaining('stopped') });
  });

  it('a chain closed when its call ended leaves nothing redeemable, and a new call’s chain does not accept the old token', async () => {
    const { book: b } = book();
    const first = b.open(opening('act_1'));
    first.started('run_first', 'doc-billing');
    const { token } = (await b.mint('run_first', from('doc-billing'))) as { token: string };
    await b.close(first);
    expect(b.chainOf('act_1')).toBeUndefined();
    expect(await b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
    const second = b.open(opening('act_2'));
    second.started('run_second', 'doc-shipping');
    expect(await b.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
  });
});

/** chrome.storage.session as the book sees it: what the last save wrote, as a copy (what Chrome gives back is never the same object). */
function sessionStore(initial?: unknown) {
  let kept: unknown = initial;
  const store: ContinuationStore = {
    load: async () => structuredClone(kept),
    save: async (chains) => void (kept = structuredClone(chains)),
  };
  return { store, kept: () => kept, corrupt: (value: unknown) => (kept = value) };
}

/** A worker's book on the shared clock and store; a new one is the worker started again after MV3 stopped it. */
function worker(session: ReturnType<typeof sessionStore>, clock: { now: number }) {
  let n = 0;
  return new ContinuationBook({ clock: () => clock.now, lifetimeMs: () => 60_000, newToken: () => `stwc_restart${++n}${clock.now}`, store: session.store });
}

describe('continuation tokens across a service-worker restart (the book kept in session storage)', () => {
  /** The first worker's call: its first link asked for a token and moved on; then the worker stopped. */
  async function stoppedAfterTheToken(session = sessionStore(), clock = { now: 1_000_000 }) {
    const before = worker(session, clock);
    const chain = before.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    const { token } = (await before.mint('run_first', from('doc-billing'))) as { token: string };
    await chain.heard('Billing saved.');
    chain.settled('run_first');
    return { session, clock, token };
  }

  it('the restarted pipeline’s recovery takes the chain up for its action and key; the next document redeems the token once, and that stays so after another restart', async () => {
    const { session, clock, token } = await stoppedAfterTheToken();
    const after = worker(session, clock);
    // The page asks before recovery has taken the chain up: answered once it has.
    const asked = after.redeem(token, from('doc-shipping'));
    const chain = await after.adopt('act_1', 'key-act_1');
    expect(chain).toMatchObject({ action_id: 'act_1', tabId: TAB, origin: SHOP, tool: 'checkout', said: ['Billing saved.'] });
    expect(chain!.planned.observed).toEqual({ url: `${SHOP}/billing`, state_version: 'fp-4a5b6c' });
    expect(await asked).toEqual({ tool: 'checkout' });
    expect(await chain!.redemption(5_000)).toEqual({ token, frameId: 0, documentId: 'doc-shipping' });
    expect(await after.redeem(token, from('doc-replay'))).toEqual({ refused: 'This continuation token was already redeemed.' });

    // Stopped again while the resumed link runs: the used token is refused by the next worker too, and nothing is left to take up.
    const third = worker(session, clock);
    expect(await third.adopt('act_1', 'key-act_1')).toBeUndefined();
    expect(await third.redeem(token, from('doc-replay'))).toEqual({ refused: expect.stringContaining('not valid') });
  });

  it('a token that expired while the worker was stopped is refused after the restart, and recovery has no chain to take up', async () => {
    const { session, clock, token } = await stoppedAfterTheToken();
    clock.now += 60_001;
    const after = worker(session, clock);
    expect(await after.adopt('act_1', 'key-act_1')).toBeUndefined();
    expect(await after.redeem(token, from('doc-shipping'))).toEqual({ refused: expect.stringContaining('not valid') });
    expect(session.kept()).toEqual({});
  });

  it('a chain is bound to its action’s idempotency key: recovery of the action under another key does not get it, and its token is refused', async () => {
    const { session, clock, token } = await stoppedAfterTheToken();
    const after = worker(session, clock);
    expect(await after.adopt('act_1', 'another-key')).toBeUndefined();
    expect(await after.adopt('act_1', 'key-act_1')).toBeUndefined();
    expect(await after.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
  });

  it('a chain recovery does not take up (its action was no longer dispatched) is let go: a page already asking is refused, and so is any later one', async () => {
    const { session, clock, token } = await stoppedAfterTheToken();
    const after = worker(session, clock);
    const asked = after.redeem(token, from('doc-shipping'));
    await after.releaseUnadopted();
    expect(await asked).toEqual({ refused: expect.stringContaining('not valid') });
    expect(await after.redeem(token, from('doc-shipping'))).toHaveProperty('refused');
    expect(await worker(session, clock).adopt('act_1', 'key-act_1')).toBeUndefined();
  });

  it('a record that does not read as the book wrote it is dropped (its token refused); the other chains come back', async () => {
    const session = sessionStore();
    const clock = { now: 1_000_000 };
    const first = await stoppedAfterTheToken(session, clock);
    const kept = session.kept() as Record<string, Record<string, unknown>>;
    session.corrupt({ ...kept, act_2: { ...kept.act_1, action_id: 'act_2', issued: { token: 'not a token', minted_at: 0, redeemed: false } } });
    const after = worker(session, clock);
    expect(await after.adopt('act_2', 'key-act_1')).toBeUndefined();
    expect(await after.redeem('not a token', from('doc-shipping'))).toHaveProperty('refused');
    expect(await after.adopt('act_1', 'key-act_1')).toBeDefined();
    expect(await after.redeem(first.token, from('doc-shipping'))).toEqual({ tool: 'checkout' });
    expect(Object.keys(session.kept() as object)).toEqual(['act_1']);

    // Nothing readable at all: no chain comes back, and the book starts empty.
    session.corrupt('garbage');
    const blank = worker(session, clock);
    expect(await blank.adopt('act_1', 'key-act_1')).toBeUndefined();
    expect(session.kept()).toEqual({});
  });

  it('a token is kept before the page is given it, and its redemption before the page hears it was accepted', async () => {
    const session = sessionStore();
    const clock = { now: 1_000_000 };
    const b = worker(session, clock);
    const chain = b.open(opening('act_1'));
    chain.started('run_first', 'doc-billing');
    const { token } = (await b.mint('run_first', from('doc-billing'))) as { token: string };
    expect(session.kept()).toMatchObject({ act_1: { issued: { token, redeemed: false }, idempotency_key: 'key-act_1', tabId: TAB, origin: SHOP } });
    chain.settled('run_first');
    expect(await b.redeem(token, from('doc-shipping'))).toEqual({ tool: 'checkout' });
    expect(session.kept()).toMatchObject({ act_1: { issued: { token, redeemed: true } } });
    await b.close(chain);
    expect(session.kept()).toEqual({});
  });
});
