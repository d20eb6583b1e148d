import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManagedPolicy, type PolicySource } from '../../../../src/background/core/managed-policy.ts';
import { NO_POLICY } from '../../../../src/protocol/managed-policy.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const FIRST_READ_WAIT_MS = 10_000;

const SHOP = 'https://shop.example';

/** Chrome's managed storage as the worker sees it: answers when the test says so (or fails), and a kept last reading. */
class FakeSource implements PolicySource {
  kept: unknown = undefined;
  readonly pending: Array<{ resolve(raw: unknown): void; reject(e: Error): void }> = [];
  private changed: () => void = () => undefined;
  read = () => new Promise<unknown>((resolve, reject) => this.pending.push({ resolve, reject }));
  onChanged = (listener: () => void) => void (this.changed = listener);
  lastReading = {
    get: async () => this.kept,
    set: async (raw: unknown) => void (this.kept = raw),
  };
  /** Chrome answers the oldest read still waiting. */
  answer(raw: unknown): void {
    this.pending.shift()!.resolve(raw);
  }
  fail(): void {
    this.pending.shift()!.reject(new Error('policy service went away'));
  }
  /** Chrome reloaded its policy (storage.onChanged, area managed). */
  reload(): void {
    this.changed();
  }
  get waiting(): number {
    return this.pending.length;
  }
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ManagedPolicy: the first reading', () => {
  it("applies Chrome's reading, keeps it for a later start, and reads again when Chrome reloads the policy", async () => {
    const source = new FakeSource();
    const policy = new ManagedPolicy(source);
    expect(await settled(policy.ready)).toBe(false);
    source.answer({ blockedSites: [SHOP] });
    await policy.ready;
    expect(policy.current().blockedSites.map((s) => s.text)).toEqual([SHOP]);
    expect(source.kept).toEqual({ blockedSites: [SHOP] });

    const heard: string[][] = [];
    policy.onChange((p) => heard.push(p.policy.managed));
    source.reload();
    source.answer({});
    await vi.advanceTimersByTimeAsync(0);
    expect(policy.current()).toEqual(NO_POLICY);
    expect(heard).toEqual([[]]);
    expect(source.kept).toEqual({});
  });

  it('Chrome slow to answer: the doors wait, then the last reading it gave applies (a blocked site stays blocked); its answer replaces it when it comes', async () => {
    const source = new FakeSource();
    source.kept = { blockedSites: [SHOP] };
    const policy = new ManagedPolicy(source);
    await vi.advanceTimersByTimeAsync(FIRST_READ_WAIT_MS - 1);
    expect(await settled(policy.ready)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await policy.ready;
    expect(policy.current().blockedSites.map((s) => s.text)).toEqual([SHOP]);

    const heard: boolean[] = [];
    policy.onChange((p) => heard.push(p.policy.copilotEnabled));
    source.answer({ blockedSites: [SHOP], copilotEnabled: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual([false]);
    expect(policy.current().copilotEnabled).toBe(false);
  });

  it('Chrome silent in a browser that never had a reading: after the wait no policy applies, so a person’s Steward keeps working', async () => {
    const source = new FakeSource();
    const policy = new ManagedPolicy(source);
    await vi.advanceTimersByTimeAsync(FIRST_READ_WAIT_MS);
    await policy.ready;
    expect(policy.current()).toEqual(NO_POLICY);
    // Chrome's late answer still applies.
    source.answer({ allowedSites: [SHOP] });
    await vi.advanceTimersByTimeAsync(0);
    expect(policy.current().allowedSites?.map((s) => s.text)).toEqual([SHOP]);
  });

  it("a failed read is not a reading: the last one applies at once, not 'no policy'", async () => {
    const source = new FakeSource();
    source.kept = { frozenActions: [{ action: 'orders.cancel' }] };
    const policy = new ManagedPolicy(source);
    source.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(await settled(policy.ready)).toBe(true);
    expect(policy.current().frozenActions.map((f) => f.pattern.text)).toEqual(['orders.cancel']);
    // A later failure leaves the reading in force too.
    source.reload();
    source.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(policy.current().frozenActions.map((f) => f.pattern.text)).toEqual(['orders.cancel']);
  });

  it('an answer to an older read that arrives after a newer one is dropped', async () => {
    const source = new FakeSource();
    const policy = new ManagedPolicy(source);
    source.reload();
    expect(source.waiting).toBe(2);
    // The newer read (after Chrome reloaded) answers first; the first read's stale answer then comes in.
    const first = source.pending.shift()!;
    source.answer({ copilotEnabled: false });
    await policy.ready;
    first.resolve({});
    await vi.advanceTimersByTimeAsync(0);
    expect(policy.current().copilotEnabled).toBe(false);
  });
});
