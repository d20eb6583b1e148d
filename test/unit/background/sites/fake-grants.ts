import type { HostGrants } from '../../../../src/background/sites/host-grants.ts';

/**
 * Chrome's host grants as Steward sees them through chrome.permissions, in memory: the person's
 * answers to Chrome's prompt (`grant`) and removals in chrome://extensions (`revoke`) fire the
 * change event as Chrome's onAdded / onRemoved do.
 */
export class FakeGrants implements HostGrants {
  readonly origins = new Set<string>();
  /** A grant of every http(s) site, as Chrome carries it from a version that had <all_urls>. */
  broadGrant = false;
  readonly released: string[] = [];
  private listeners: Array<() => void> = [];

  constructor(initial: string[] = []) {
    for (const o of initial) this.origins.add(o);
  }

  async granted(origins: readonly string[]): Promise<Set<string>> {
    return new Set(origins.filter((o) => this.broadGrant || this.origins.has(o)));
  }
  async broad(): Promise<string[]> {
    return this.broadGrant ? ['http://*/*', 'https://*/*'] : [];
  }
  async release(origin: string): Promise<void> {
    this.released.push(origin);
    this.revoke(origin);
  }
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
  grant(origin: string): void {
    this.origins.add(origin);
    for (const l of this.listeners) l();
  }
  revoke(origin: string): void {
    if (!this.origins.delete(origin)) return;
    for (const l of this.listeners) l();
  }
}
