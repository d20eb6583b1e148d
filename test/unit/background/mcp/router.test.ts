import { describe, expect, it } from 'vitest';
import { createBridgeRouter, type CallContext } from '../../../../src/background/mcp/router.ts';
import { EXTENSION_TO_HOST_MAX_BYTES, type BridgeRequests, type ExtensionToHost } from '../../../../src/protocol/bridge.ts';
import { ok, refuse, type Handlers } from '../../../../src/protocol/channel.ts';

const AUTH = { agent_id: 'agent:mcp-test-1a2b', token: 'stw_secret_x' };
const notUsed = () => refuse('NOT_USED', 'not used in this test');

function setUp(overrides: Partial<Handlers<BridgeRequests, CallContext>> = {}) {
  const posted: ExtensionToHost[] = [];
  const logs: string[] = [];
  const hellos: string[] = [];
  const handlers: Handlers<BridgeRequests, CallContext> = {
    'bridge/pair-request': notUsed,
    'bridge/pair-claim': notUsed,
    'bridge/tabs': () => ok({ tabs: [] }),
    'bridge/open': notUsed,
    'bridge/observe': notUsed,
    'bridge/actions': notUsed,
    'bridge/execute': notUsed,
    'bridge/action-status': notUsed,
    'bridge/memory': notUsed,
    'bridge/page-tools': notUsed,
    'bridge/page-tool-call': notUsed,
    'bridge/screenshot': notUsed,
    ...overrides,
  };
  const route = createBridgeRouter({ handlers, post: (m) => posted.push(m), hello: (v) => hellos.push(v), log: (m) => logs.push(m) });
  return { route, posted, logs, hellos };
}

const call = (id: string, message: unknown, conn = 'c1') => ({ kind: 'call', id, conn, message });

describe('bridge router', () => {
  it('answers a call with its id and connection', async () => {
    const s = setUp();
    await s.route(call('a1', { type: 'bridge/tabs', auth: AUTH }, 'conn-7'));
    expect(s.posted).toEqual([{ kind: 'reply', id: 'a1', conn: 'conn-7', reply: { ok: true, data: { tabs: [] } } }]);
  });

  it('drops and logs what is not a host message, never throwing and never echoing it', async () => {
    const s = setUp();
    for (const junk of [
      null,
      42,
      'hello',
      {},
      { kind: 'call' },
      { kind: 'call', id: 'x y', conn: 'c', message: {} },
      { kind: 'reply', id: 'a', conn: 'c' },
      { kind: 'hello', protocol: 2, host_version: '1' },
    ]) {
      await expect(s.route(junk)).resolves.toBeUndefined();
    }
    expect(s.posted).toEqual([]);
    expect(s.logs).toHaveLength(8);
    expect(s.logs.join('\n')).not.toContain('x y');
  });

  it('refuses an unknown type and a payload that does not fit, as replies', async () => {
    const s = setUp();
    await s.route(call('u1', { type: 'panel/approval-decide', request_id: 'r' }));
    await s.route(call('u2', { type: 'bridge/tabs' }));
    await s.route(call('u3', 'not an object'));
    expect(s.posted.map((p) => p.kind === 'reply' && !p.reply.ok && [p.id, p.reply.error.code])).toEqual([
      ['u1', 'INVALID_MESSAGE'],
      ['u2', 'INVALID_MESSAGE'],
      ['u3', 'INVALID_MESSAGE'],
    ]);
  });

  it('turns a handler that throws into an INTERNAL refusal', async () => {
    const s = setUp({ 'bridge/tabs': () => Promise.reject(new Error('boom')) });
    await s.route(call('t1', { type: 'bridge/tabs', auth: AUTH }));
    expect(s.posted[0]).toMatchObject({ id: 't1', reply: { ok: false, error: { code: 'INTERNAL' } } });
  });

  it('replaces a reply larger than the link carries with a refusal', async () => {
    const big = 'x'.repeat(EXTENSION_TO_HOST_MAX_BYTES);
    const s = setUp({ 'bridge/tabs': () => ok({ tabs: [{ tab_id: 1, url: 'http://a.test/', title: big, origin: 'http://a.test', active: true }] }) });
    await s.route(call('b1', { type: 'bridge/tabs', auth: AUTH }));
    expect(s.posted[0]).toMatchObject({ id: 'b1', reply: { ok: false, error: { code: 'REPLY_TOO_LARGE' } } });
    expect(JSON.stringify(s.posted[0]).length).toBeLessThan(1000);
  });

  it('runs calls concurrently: a slow call does not hold back a quick one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = setUp({
      'bridge/memory': async () => {
        await gate;
        return ok({ unfinished: [], resources: [] });
      },
    });
    const slow = s.route(call('slow', { type: 'bridge/memory', auth: AUTH }));
    await s.route(call('quick', { type: 'bridge/tabs', auth: AUTH }));
    expect(s.posted.map((p) => p.kind === 'reply' && p.id)).toEqual(['quick']);
    release();
    await slow;
    expect(s.posted.map((p) => p.kind === 'reply' && p.id)).toEqual(['quick', 'slow']);
  });

  it('hands the host hello to the link', async () => {
    const s = setUp();
    await s.route({ kind: 'hello', host_version: '0.1.0', protocol: 1 });
    expect(s.hellos).toEqual(['0.1.0']);
    expect(s.posted).toEqual([]);
  });
});
