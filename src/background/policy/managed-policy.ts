import { NO_POLICY, parsePolicy, type ParsedPolicy, type Policy } from '../../protocol/managed-policy.ts';
import { browser } from '../browser.ts';

/**
 * The organisation's policy as the worker applies it: read from chrome.storage.managed at start
 * and again whenever Chrome reloads it (storage.onChanged, area `managed`: Chrome re-reads its
 * policy files and the admin console by itself), so a change takes effect without a restart.
 * The reading and the rules are pure (src/protocol/managed-policy.ts, policy-rules.ts); this only
 * fetches and tells the doors.
 */
export class ManagedPolicy {
  private parsed: ParsedPolicy = { policy: NO_POLICY, problems: [] };
  private readonly listeners = new Set<(parsed: ParsedPolicy) => void>();
  private queue: Promise<void> = Promise.resolve();
  /** Settled once the first reading is in: the doors wait for it before deciding anything. */
  readonly ready: Promise<void>;

  constructor() {
    this.ready = this.load();
    browser.storage.onChanged.addListener((_changes, area) => {
      if (area === 'managed') void this.load();
    });
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

  private load(): Promise<void> {
    this.queue = this.queue.then(async () => {
      let raw: unknown;
      try {
        raw = await browser.storage.managed.get();
      } catch (e) {
        // A browser without enterprise policy support (or no schema) has no policy to apply.
        console.warn('Steward could not read its managed policy', e);
        raw = undefined;
      }
      this.parsed = parsePolicy(raw);
      if (this.parsed.problems.length > 0) console.warn('Steward’s managed policy has problems; their strictest reading applies', this.parsed.problems);
      for (const listener of this.listeners) listener(this.parsed);
    });
    return this.queue;
  }
}
