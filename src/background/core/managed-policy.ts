import { NO_POLICY, parsePolicy, type ParsedPolicy, type Policy } from '../../protocol/managed-policy.ts';

/**
 * Where the policy comes from: Chrome's chrome.storage.managed (chrome-policy-source.ts), and the
 * last reading Chrome gave, kept in chrome.storage.local for a start at which Chrome is slow.
 */
export interface PolicySource {
  /**
   * The managed storage's contents. Chrome answers only once its policy service has loaded the
   * extensions' policy: at a browser start that can take seconds, and nothing bounds it.
   */
  read(): Promise<unknown>;
  /** Chrome reloaded the policy (its files, the admin console): read again. */
  onChanged(listener: () => void): void;
  lastReading: { get(): Promise<unknown>; set(raw: unknown): Promise<void> };
}

/**
 * How long the doors wait for Chrome's first reading before the last one applies. Long enough for
 * a slow browser start; short enough that a person's Steward never stops working because Chrome
 * does not answer.
 */
const FIRST_READ_WAIT_MS = 10_000;

/**
 * The organisation's policy as the worker applies it: read from chrome.storage.managed at start
 * and again whenever Chrome reloads it (storage.onChanged, area `managed`: Chrome re-reads its
 * policy files and the admin console by itself), so a change takes effect without a restart.
 * The reading and the rules are pure (src/protocol/managed-policy.ts, policy-rules.ts); this only
 * fetches and tells the doors.
 *
 * The doors wait for the first reading (`ready`), so nothing is decided (no page script registered,
 * no action run, no client paired) before the policy applies. That wait is bounded: if Chrome has
 * not answered within FIRST_READ_WAIT_MS (or its read fails), the last reading Chrome gave applies
 * (never looser than what this browser last knew), or no policy when Chrome never gave one; its
 * answer, whenever it comes, then replaces that.
 */
export class ManagedPolicy {
  private parsed: ParsedPolicy = { policy: NO_POLICY, problems: [] };
  private readonly listeners = new Set<(parsed: ParsedPolicy) => void>();
  /** Readings asked of Chrome, and the newest applied: an older answer arriving late is dropped. */
  private asked = 0;
  private applied = 0;
  private fellBack = false;
  /** Settled once a reading is in (Chrome's, or the last one after the wait): the doors wait for it before deciding anything. */
  readonly ready: Promise<void>;

  constructor(
    private readonly source: PolicySource,
    waitMs = FIRST_READ_WAIT_MS,
  ) {
    let settle!: () => void;
    this.ready = new Promise((resolve) => (settle = resolve));
    const fallBack = () => {
      clearTimeout(timer);
      void this.applyLastReading().finally(settle);
    };
    const timer = setTimeout(fallBack, waitMs);
    const load = () =>
      void this.load().then((read) => {
        if (!read) return fallBack();
        clearTimeout(timer);
        settle();
      });
    load();
    source.onChanged(load);
  }

  /** The policy now; before `ready`, no policy (callers that decide await `ready` first). */
  current(): Policy {
    return this.parsed.policy;
  }

  /** The policy and what was wrong with it, once read. */
  async read(): Promise<ParsedPolicy> {
    await this.ready;
    return this.parsed;
  }

  onChange(listener: (parsed: ParsedPolicy) => void): void {
    this.listeners.add(listener);
  }

  /** Asks Chrome; true when its answer was applied (or a newer one already was). */
  private async load(): Promise<boolean> {
    const n = ++this.asked;
    let raw: unknown;
    try {
      raw = await this.source.read();
    } catch (e) {
      // Not a reading: whatever applies now stays (a failure must not lift the organisation's rules).
      console.warn('Steward could not read its managed policy', e);
      return this.applied > 0;
    }
    if (n < this.applied) return true;
    this.applied = n;
    this.apply(parsePolicy(raw));
    await this.source.lastReading.set(raw ?? {}).catch((e) => console.warn('Steward could not keep its managed policy reading', e));
    return true;
  }

  /** Chrome has not answered in time: the last reading it gave applies until it does. */
  private async applyLastReading(): Promise<void> {
    if (this.applied > 0 || this.fellBack) return;
    this.fellBack = true;
    const last = await this.source.lastReading.get().catch(() => undefined);
    if (this.applied > 0) return;
    console.warn(`Chrome did not give Steward its managed policy in time; ${last === undefined ? 'no policy was ever read here, so none applies' : 'the last reading applies'} until it does`);
    if (last !== undefined) this.apply(parsePolicy(last));
  }

  private apply(parsed: ParsedPolicy): void {
    this.parsed = parsed;
    if (parsed.problems.length > 0) console.warn('Steward’s managed policy has problems; their strictest reading applies', parsed.problems);
    for (const listener of this.listeners) listener(parsed);
  }
}
