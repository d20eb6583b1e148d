import type { BridgeStatus, ExtensionToHost } from '../../protocol/bridge.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';

/**
 * Steward's end of the native-messaging link to the MCP bridge's host (`steward-bridge host`,
 * which Chrome starts for Steward alone). Connected at every worker start, on the recheck alarm
 * and when a side panel opens; a port that closes is reopened with backoff (1 s doubling to 30 s)
 * while the worker lives. An open port keeps the MV3 worker alive; when the worker stops, Chrome
 * closes the port and the host exits, and the next start connects again. A host that is not
 * installed is a status for Settings, logged once, not an error on every retry.
 */

export interface NativePort {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface NativeLinkDeps {
  connect(): NativePort;
  /** Why the port closed, as the browser says (runtime.lastError inside onDisconnect). */
  disconnectReason(): string | undefined;
  onMessage(raw: unknown): void;
  onChange(status: BridgeStatus): void;
  extensionVersion: string;
  clock?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  log?: (message: string) => void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
const NOT_INSTALLED = 'steward-bridge is not installed: run `npx steward-bridge install`';

/** The browser's reason, in the person's words (Settings shows it), and the same as a phrase for the panel. */
function describeDisconnect(reason: string | undefined): { problem: string; problem_said: Phrase } {
  if (!reason) return { problem: 'The steward-bridge host closed the link.', problem_said: phrase('bridge_closed') };
  if (/not found/i.test(reason)) return { problem: NOT_INSTALLED, problem_said: phrase('bridge_not_installed') };
  if (/forbidden/i.test(reason))
    return {
      problem: "Chrome refused to start steward-bridge: its host manifest does not name Steward's extension id (run `npx steward-bridge install` again).",
      problem_said: phrase('bridge_forbidden'),
    };
  if (/exited/i.test(reason)) return { problem: 'The steward-bridge host exited.', problem_said: phrase('bridge_exited') };
  return { problem: `The link to steward-bridge closed: ${reason}`.slice(0, 1000), problem_said: phrase('bridge_link_closed', { reason: reason.slice(0, 900) }) };
}

export class NativeLink {
  private port: NativePort | undefined;
  private timer: unknown;
  private retryMs = FIRST_RETRY_MS;
  private current: BridgeStatus;
  private readonly clock: () => number;

  constructor(private readonly deps: NativeLinkDeps) {
    this.clock = deps.clock ?? Date.now;
    this.current = { connected: false, problem: 'Not connected yet.', problem_said: phrase('bridge_not_yet'), since: this.now() };
  }

  status(): BridgeStatus {
    return this.current;
  }

  /** Connects now unless a port is open (a pending retry is brought forward). */
  ensure(): void {
    if (this.port) return;
    this.cancelRetry();
    this.open();
  }

  /** Sends to the host; false when no port is open (the host will ask again once reconnected). */
  post(message: ExtensionToHost): boolean {
    if (!this.port) return false;
    try {
      this.port.postMessage(message);
      return true;
    } catch (error) {
      this.deps.log?.(`posting to steward-bridge failed: ${String(error)}`);
      return false;
    }
  }

  /** The host answered our hello: the link works (and the backoff starts over). */
  helloReceived(hostVersion: string): void {
    if (!this.port) return;
    this.retryMs = FIRST_RETRY_MS;
    this.set({ connected: true, host_version: hostVersion });
  }

  private open(): void {
    let port: NativePort;
    try {
      port = this.deps.connect();
    } catch (error) {
      this.closed(error instanceof Error ? error.message : String(error));
      return;
    }
    this.port = port;
    port.onMessage.addListener((message) => {
      if (this.port === port) this.deps.onMessage(message);
    });
    port.onDisconnect.addListener(() => {
      const reason = this.deps.disconnectReason();
      if (this.port === port) this.closed(reason);
    });
    this.post({ kind: 'hello', extension_version: this.deps.extensionVersion.slice(0, 60), protocol: 1 });
  }

  private closed(reason: string | undefined): void {
    this.port = undefined;
    const { problem, problem_said } = describeDisconnect(reason);
    if (problem !== this.current.problem) this.deps.log?.(`MCP bridge: ${problem}`);
    this.set({ connected: false, problem, problem_said });
    this.cancelRetry();
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.timer = (this.deps.setTimer ?? setTimeout)(() => {
      this.timer = undefined;
      if (!this.port) this.open();
    }, wait);
  }

  private cancelRetry(): void {
    if (this.timer === undefined) return;
    (this.deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = undefined;
  }

  private set(next: Omit<BridgeStatus, 'since'>): void {
    const same = next.connected === this.current.connected && next.problem === this.current.problem && next.host_version === this.current.host_version;
    if (same) return;
    this.current = { ...next, since: this.now() };
    this.deps.onChange(this.current);
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }
}
