import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../../src/base/i18n.ts';
import { said } from '../../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../../catalogue-source.ts';
import { NativeLink, type NativePort } from '../../../../src/background/mcp/native-link.ts';
import type { BridgeStatus } from '../../../../src/protocol/bridge.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const MAX_RETRY_MS = 30_000;

/** What the panel tells the person when the bridge is not installed. */
const NOT_INSTALLED = 'steward-bridge is not installed: run `npx steward-bridge install`';

class FakePort implements NativePort {
  posted: unknown[] = [];
  private messageListeners: ((m: unknown) => void)[] = [];
  private disconnectListeners: (() => void)[] = [];
  onMessage = { addListener: (l: (m: unknown) => void) => void this.messageListeners.push(l) };
  onDisconnect = { addListener: (l: () => void) => void this.disconnectListeners.push(l) };
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  disconnect() {}
  receive(m: unknown) {
    for (const l of this.messageListeners) l(m);
  }
  close() {
    for (const l of this.disconnectListeners) l();
  }
}

function setUp() {
  const ports: FakePort[] = [];
  const statuses: BridgeStatus[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const received: unknown[] = [];
  const logs: string[] = [];
  let reason: string | undefined;
  const link = new NativeLink({
    connect: () => {
      const p = new FakePort();
      ports.push(p);
      return p;
    },
    disconnectReason: () => reason,
    onMessage: (m) => received.push(m),
    onChange: (s) => statuses.push(s),
    extensionVersion: '0.9.0',
    clock: () => Date.parse('2026-12-01T18:00:00Z'),
    setTimer: (run, ms) => {
      const t = { run, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => void ((h as { cleared: boolean }).cleared = true),
    log: (m) => logs.push(m),
  });
  const fire = () => {
    const t = timers.filter((x) => !x.cleared).at(-1)!;
    t.cleared = true;
    t.run();
  };
  const drop = (why: string | undefined) => {
    reason = why;
    ports.at(-1)!.close();
  };
  return { link, ports, statuses, timers, received, logs, fire, drop };
}

describe('native link', () => {
  it('says hello on connect and is connected once the host answers', () => {
    const s = setUp();
    s.link.ensure();
    expect(s.ports[0]!.posted).toEqual([{ kind: 'hello', extension_version: '0.9.0', protocol: 1 }]);
    expect(s.link.status().connected).toBe(false);
    s.link.helloReceived('0.1.0');
    expect(s.link.status()).toMatchObject({ connected: true, host_version: '0.1.0' });
    expect(s.statuses.at(-1)).toMatchObject({ connected: true });
    s.ports[0]!.receive({ kind: 'call' });
    expect(s.received).toEqual([{ kind: 'call' }]);
    s.link.ensure();
    expect(s.ports).toHaveLength(1);
  });

  it('reconnects with backoff from 1 s doubling to 30 s, and starts over once connected', () => {
    const s = setUp();
    s.link.ensure();
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      s.drop('Native host has exited.');
      waits.push(s.timers.at(-1)!.ms);
      s.fire();
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, MAX_RETRY_MS, MAX_RETRY_MS]);
    expect(s.ports).toHaveLength(8);
    s.link.helloReceived('0.1.0');
    s.drop('Native host has exited.');
    expect(s.timers.at(-1)!.ms).toBe(1000);
  });

  it('a host that is not installed is a quiet status: logged once, however often it is retried', () => {
    const s = setUp();
    s.link.ensure();
    for (let i = 0; i < 5; i++) {
      s.drop('Specified native messaging host not found.');
      s.fire();
    }
    expect(s.link.status()).toMatchObject({ connected: false, problem: NOT_INSTALLED });
    // Settings says it from its phrase: in English word for word, in Vietnamese from the catalogue.
    expect(said(s.link.status().problem_said, '')).toBe(NOT_INSTALLED);
    useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue, 'vi'));
    expect(said(s.link.status().problem_said, '')).toBe('steward-bridge chưa được cài đặt: hãy chạy `npx steward-bridge install`');
    useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Catalogue, 'en-US'));
    expect(s.logs).toEqual([`MCP bridge: ${NOT_INSTALLED}`]);
    expect(s.statuses.filter((x) => x.problem === NOT_INSTALLED)).toHaveLength(1);
  });

  it('ensure() brings a pending retry forward (a side panel opened) instead of waiting for it', () => {
    const s = setUp();
    s.link.ensure();
    s.drop('Native host has exited.');
    const pending = s.timers.at(-1)!;
    s.link.ensure();
    expect(pending.cleared).toBe(true);
    expect(s.ports).toHaveLength(2);
  });

  it('ignores a late message or disconnect of a port it has replaced', () => {
    const s = setUp();
    s.link.ensure();
    const old = s.ports[0]!;
    s.drop('Native host has exited.');
    s.fire();
    old.receive({ kind: 'stale' });
    s.link.helloReceived('0.1.0');
    old.close();
    expect(s.received).toEqual([]);
    expect(s.link.status().connected).toBe(true);
  });
});
