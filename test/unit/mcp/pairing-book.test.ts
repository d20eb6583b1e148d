import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPairingBook } from '../../../src/mcp/pairing-book.ts';
import type { PairingMap } from '../../../src/mcp/pairing-record.ts';
import type { McpClientInfo, PairingGrant } from '../../../src/protocol/bridge.ts';
import type { Reply } from '../../../src/protocol/channel.ts';
import type { PanelPush, TokenWithUsage } from '../../../src/protocol/panel-channel.ts';

/** Documented limits of the module under test, written out so a change to them fails here. */
const PAIRING_TTL_MS = 10 * 60_000;
const MAX_PER_CONNECTION = 4;
const MAX_PER_SOURCE = 2;
const MAX_UNDECIDED = 12;

const CLIENT: McpClientInfo = { name: 'Claude Desktop', version: '1.4.2', transport: 'stdio' };
const GRANT: PairingGrant = { scope: ['*:*'], origins: ['http://localhost:4001'], resource_scope: '*', payment: false, ttl_ms: 86_400_000 };
const FROM = { conn: 'conn-aaaaaaaa' };
const START = Date.parse('2026-12-01T10:00:00Z');

function setup() {
  let stored: unknown = undefined;
  let now = START;
  let serial = 0;
  const minted: Array<{ agent_id: string; label?: string; scope: string[] }> = [];
  const revoked: string[] = [];
  const pushes: PanelPush[] = [];
  const announced: string[] = [];
  const book = createPairingBook({
    storage: {
      load: () => Promise.resolve(structuredClone(stored)),
      save: (records: PairingMap) => {
        stored = structuredClone(records);
        return Promise.resolve();
      },
    },
    clock: () => now,
    random: (n) => new Uint8Array(randomBytes(n)),
    mintToken: (r) => {
      minted.push(r);
      const token_id = `tok_${String(++serial).padStart(6, '0')}`;
      const token: TokenWithUsage = {
        token: {
          token_type: 'delegated_agent_token',
          token_id,
          agent_id: r.agent_id,
          principal: 'user:local',
          scope: r.scope,
          resource_scope: r.resource_scope,
          origins: r.origins,
          payment: r.payment,
          issued_at: new Date(now).toISOString(),
          expires_at: new Date(now + r.ttl_ms).toISOString(),
          revocable_at: '/tokens/revoke',
          ...(r.label ? { label: r.label } : {}),
        },
        status: 'active',
        uses: 0,
      };
      return Promise.resolve({ ...token, secret: `stw_secret_${'A'.repeat(42)}${serial % 10}` });
    },
    revokeToken: (id) => {
      revoked.push(id);
      return Promise.resolve();
    },
    push: (m) => pushes.push(m),
    announce: (name) => announced.push(name),
  });
  return {
    book,
    minted,
    revoked,
    pushes,
    announced,
    advance: (ms: number) => (now += ms),
    stored: () => stored as Record<string, unknown>,
    setStored: (v: unknown) => (stored = v),
  };
}

function data<T>(reply: Reply<T>): T {
  if (!reply.ok) throw new Error(`refused: ${reply.error.code} ${reply.error.message}`);
  return reply.data;
}
function code(reply: Reply<unknown>): string | undefined {
  return reply.ok ? undefined : reply.error.code;
}
const wrongCode = (right: string) => (right === '000-000' ? '000-001' : '000-000');

describe('pairing book: a request', () => {
  it('gives a pairing id, a 6-digit code, a claim secret and a 10-minute expiry; shows it in the panel and tells the person', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    expect(r.pairing_id).toMatch(/^pair_[A-Za-z0-9_-]{16,}$/);
    expect(r.code).toMatch(/^\d{3}-\d{3}$/);
    expect(r.claim_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(r.expires_at) - START).toBe(PAIRING_TTL_MS);
    expect(await s.book.pending()).toEqual([
      { pairing_id: r.pairing_id, client: CLIENT, requested_at: new Date(START).toISOString(), expires_at: r.expires_at, wrong_codes: 0, source: 'conn-aaaaaaaa' },
    ]);
    expect(s.pushes).toContainEqual({ type: 'panel/pairings-changed' });
    expect(s.announced).toEqual(['Claude Desktop']);
  });

  it('stores only the hash of the claim secret', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    expect(JSON.stringify(s.stored())).not.toContain(r.claim_secret);
  });

  it(`refuses a flood from one source (${MAX_PER_SOURCE} at once), leaving room for another's; nobody's request is evicted`, async () => {
    const s = setup();
    const first = data(await s.book.request({ ...CLIENT, name: 'flood-0' }, FROM));
    for (let i = 1; i < MAX_PER_SOURCE; i++) data(await s.book.request({ ...CLIENT, name: `flood-${i}` }, FROM));
    const refused = await s.book.request({ ...CLIENT, name: 'one too many' }, FROM);
    expect(code(refused)).toBe('QUOTA_EXCEEDED');
    expect(refused.ok ? '' : refused.error.message).toMatch(/already has 2 pairing requests waiting/);
    // Another client, on its own connection, still gets in.
    expect((await s.book.request({ ...CLIENT, name: 'genuine' }, { conn: 'conn-bbbbbbbb' })).ok).toBe(true);
    const pending = await s.book.pending();
    expect(pending.map((p) => p.client.name)).toEqual(['flood-0', 'flood-1', 'genuine']);
    expect(pending[0]!.pairing_id).toBe(first.pairing_id);
    // A decision frees a place for that source.
    data(await s.book.decide({ pairing_id: first.pairing_id, decision: { accept: false } }));
    expect((await s.book.request({ ...CLIENT, name: 'now there is room' }, FROM)).ok).toBe(true);
  });

  it(`a connection naming many sources holds at most ${MAX_PER_CONNECTION}; everyone together at most ${MAX_UNDECIDED}`, async () => {
    const s = setup();
    for (let i = 0; i < MAX_PER_CONNECTION; i++) data(await s.book.request({ ...CLIENT, name: `sub-${i}` }, { conn: 'conn-flood', sub: `http:bearer-${i}` }));
    const over = await s.book.request({ ...CLIENT, name: 'sub-x' }, { conn: 'conn-flood', sub: 'http:bearer-x' });
    expect(over.ok ? '' : over.error.message).toMatch(/This bridge connection already has 4/);
    let n = MAX_PER_CONNECTION;
    for (let c = 0; n < MAX_UNDECIDED; c++) {
      data(await s.book.request({ ...CLIENT, name: `c-${c}` }, { conn: `conn-${c}` }));
      n++;
    }
    const full = await s.book.request({ ...CLIENT, name: 'late' }, { conn: 'conn-late' });
    expect(full.ok ? '' : full.error.message).toMatch(/12 pairing requests are already waiting/);
  });

  it('the person refuses a whole source in one step: its waiting requests end, its later ones are refused, other sources are untouched', async () => {
    const s = setup();
    const flood = [data(await s.book.request({ ...CLIENT, name: 'f1' }, FROM)), data(await s.book.request({ ...CLIENT, name: 'f2' }, FROM))];
    const genuine = data(await s.book.request({ ...CLIENT, name: 'genuine' }, { conn: 'conn-bbbbbbbb' }));
    expect(await s.book.refuseSource('conn-aaaaaaaa')).toEqual({ refused: 2 });
    expect((await s.book.pending()).map((p) => p.pairing_id)).toEqual([genuine.pairing_id]);
    for (const r of flood) expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_REFUSED');
    expect(code(await s.book.request({ ...CLIENT, name: 'f3' }, FROM))).toBe('PAIRING_REFUSED');
    expect(s.pushes.filter((p) => p.type === 'panel/pairings-changed').length).toBeGreaterThan(3);
  });
});

describe('pairing book: the decision', () => {
  it('a right code mints the client its own token (agent:mcp-<slug>-<hex>, labelled with its name, with the grant)', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    const d = data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code.replace('-', ' '), grant: GRANT } }));
    expect(d.status).toBe('paired');
    expect(s.minted).toHaveLength(1);
    expect(s.minted[0]).toMatchObject({ label: 'Claude Desktop', scope: ['*:*'], origins: ['http://localhost:4001'] });
    expect(s.minted[0]!.agent_id).toMatch(/^agent:mcp-claude-desktop-[0-9a-f]{6}$/);
    expect(d.status === 'paired' && 'secret' in d.token).toBe(false);
    expect(await s.book.pending()).toEqual([]);
  });

  it('the hash of the key a client presented travels with its request (kept through a worker restart) to its token', async () => {
    const s = setup();
    const key_sha256 = 'c'.repeat(64);
    const r = data(await s.book.request({ ...CLIENT, key_sha256 }, FROM));
    expect((await s.book.pending())[0]!.client.key_sha256).toBe(key_sha256);
    // The stored record reads back (the worker may have restarted in between).
    expect(JSON.stringify(s.stored())).toContain(key_sha256);
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    expect(s.minted[0]).toMatchObject({ label: 'Claude Desktop', client_key_sha256: key_sha256 });

    const plain = data(await s.book.request(CLIENT, { conn: 'conn-bbbbbbbb' }));
    data(await s.book.decide({ pairing_id: plain.pairing_id, decision: { accept: true, code: plain.code, grant: GRANT } }));
    expect(s.minted[1]).not.toHaveProperty('client_key_sha256');
  });

  it('a claim that waits is answered when the person decides, not when its wait runs out', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    let answered = false;
    // 50 s: far beyond this test's 5 s budget, so only the decision can end the wait in time.
    const waiting = s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret, wait_ms: 50_000 }).finally(() => (answered = true));
    await new Promise((done) => setTimeout(done, 50));
    expect(answered).toBe(false);
    await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } });
    expect(data(await waiting)).toMatchObject({ status: 'paired', agent_id: s.minted[0]!.agent_id });

    const refused = data(await s.book.request(CLIENT, FROM));
    const heard = s.book.claim({ pairing_id: refused.pairing_id, claim_secret: refused.claim_secret, wait_ms: 50_000 });
    await s.book.decide({ pairing_id: refused.pairing_id, decision: { accept: false } });
    expect(code(await heard)).toBe('PAIRING_REFUSED');
  });

  it('a wrong code is refused with how many tries remain; the third ends the request as refused', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    const wrong = { pairing_id: r.pairing_id, decision: { accept: true as const, code: wrongCode(r.code), grant: GRANT } };
    const first = await s.book.decide(wrong);
    expect(code(first)).toBe('PAIRING_CODE_MISMATCH');
    expect(first.ok ? '' : first.error.message).toMatch(/does not match.*2 tries left/);
    expect((await s.book.pending())[0]!.wrong_codes).toBe(1);
    const second = await s.book.decide(wrong);
    expect(second.ok ? '' : second.error.message).toMatch(/1 try left/);
    expect(code(await s.book.decide(wrong))).toBe('PAIRING_REFUSED');
    expect(await s.book.pending()).toEqual([]);
    // Not even the right code opens it now, and nothing was minted.
    expect(code(await s.book.decide({ ...wrong, decision: { ...wrong.decision, code: r.code } }))).toBe('PAIRING_UNKNOWN');
    expect(s.minted).toEqual([]);
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_REFUSED');
  });

  it('something that is not a code at all is refused without using up a try', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    expect(code(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: '12', grant: GRANT } }))).toBe('INVALID_INPUT');
    expect((await s.book.pending())[0]!.wrong_codes).toBe(0);
  });

  it('refusing ends the request; the bridge hears PAIRING_REFUSED once', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    expect(data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: false } }))).toEqual({ status: 'denied' });
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_REFUSED');
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_UNKNOWN');
  });

  it('a request past its expiry can no longer be accepted', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    s.advance(PAIRING_TTL_MS);
    expect(code(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }))).toBe('PAIRING_EXPIRED');
    expect(s.minted).toEqual([]);
  });
});

describe('pairing book: the claim', () => {
  it('says pending (with the code) until the person decides, then hands the token secret out once', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    const claim = { pairing_id: r.pairing_id, claim_secret: r.claim_secret };
    expect(data(await s.book.claim(claim))).toEqual({ status: 'pending', code: r.code, expires_at: r.expires_at });
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    const paired = data(await s.book.claim(claim));
    expect(paired).toMatchObject({ status: 'paired', agent_id: s.minted[0]!.agent_id, token_id: 'tok_000001', scope: ['*:*'], origins: ['http://localhost:4001'] });
    expect(paired.status === 'paired' && paired.token).toMatch(/^stw_secret_/);
    expect(code(await s.book.claim(claim))).toBe('PAIRING_UNKNOWN');
    expect(s.stored()).toEqual({});
    expect(s.revoked).toEqual([]);
  });

  it('a wrong claim secret is PAIRING_UNKNOWN, as for a pairing that does not exist', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    const wrong = await s.book.claim({ pairing_id: r.pairing_id, claim_secret: 'x'.repeat(43) });
    const missing = await s.book.claim({ pairing_id: 'pair_doesnotexist00', claim_secret: r.claim_secret });
    expect(code(wrong)).toBe('PAIRING_UNKNOWN');
    expect(wrong).toEqual(missing);
    // The rightful bridge still collects its token.
    expect(data(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret })).status).toBe('paired');
  });

  it('two claims at once hand the secret out only once', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    const claim = { pairing_id: r.pairing_id, claim_secret: r.claim_secret };
    const both = await Promise.all([s.book.claim(claim), s.book.claim(claim)]);
    expect(both.filter((b) => b.ok && b.data.status === 'paired')).toHaveLength(1);
  });

  it('an unanswered request expires: PAIRING_EXPIRED, and it leaves the panel', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    s.pushes.length = 0;
    s.advance(PAIRING_TTL_MS + 1);
    expect(await s.book.pending()).toEqual([]);
    expect(s.pushes).toContainEqual({ type: 'panel/pairings-changed' });
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_EXPIRED');
  });

  it('an accepted pairing never collected expires and its token is revoked', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    s.advance(9 * 60_000);
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    // Accepted late: the bridge still gets its full window to collect.
    s.advance(5 * 60_000);
    await s.book.sweep();
    expect(s.revoked).toEqual([]);
    s.advance(PAIRING_TTL_MS);
    await s.book.sweep();
    expect(s.revoked).toEqual(['tok_000001']);
    expect(JSON.stringify(s.stored())).not.toContain('stw_secret_');
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_EXPIRED');
  });

  it('withdrawing (the bridge went away) revokes an uncollected token', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    data(await s.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } }));
    await s.book.withdraw(r.pairing_id);
    expect(s.revoked).toEqual(['tok_000001']);
    expect(code(await s.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret }))).toBe('PAIRING_UNKNOWN');
  });
});

describe('pairing book: what is stored', () => {
  it('drops records that do not validate, keeps the rest, and revokes a token a broken record names', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    const good = s.stored()[r.pairing_id];
    s.setStored({
      [r.pairing_id]: good,
      pair_brokenrecord01: { pairing_id: 'pair_brokenrecord01', status: 'paired', token: { token_id: 'tok_abcdef' } },
      pair_mismatchedid01: { ...(good as object), pairing_id: r.pairing_id },
      junk: 42,
    });
    const pending = await s.book.pending();
    expect(pending.map((p) => p.pairing_id)).toEqual([r.pairing_id]);
    expect(s.revoked).toEqual(['tok_abcdef']);
    expect(Object.keys(s.stored())).toEqual([r.pairing_id]);
  });

  it('a stored value that is not a map at all is an empty book', async () => {
    const s = setup();
    s.setStored('not a map');
    expect(await s.book.pending()).toEqual([]);
    expect((await s.book.request(CLIENT, FROM)).ok).toBe(true);
  });

  it('survives a restart: a new book over the same storage sees the request and accepts its code', async () => {
    const s = setup();
    const r = data(await s.book.request(CLIENT, FROM));
    const stored = s.stored();
    const t = setup();
    t.setStored(stored);
    expect((await t.book.pending()).map((p) => p.pairing_id)).toEqual([r.pairing_id]);
    expect(data(await t.book.decide({ pairing_id: r.pairing_id, decision: { accept: true, code: r.code, grant: GRANT } })).status).toBe('paired');
    expect(data(await t.book.claim({ pairing_id: r.pairing_id, claim_secret: r.claim_secret })).status).toBe('paired');
  });
});
