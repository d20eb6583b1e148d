import { describe, expect, it } from 'vitest';
import { NO_POLICY, parsePolicy, siteMatches } from '../../../src/protocol/managed-policy.ts';
import { actionVerdict, clampTtlMs, combineSites, exportTargetInForce, modelVerdict, pairingVerdict, siteVerdict } from '../../../src/protocol/policy-rules.ts';

const SHOP = 'https://shop.example.com';
const at = (iso: string) => Date.parse(iso);

describe('managed policy: reading what the organisation set', () => {
  it('no policy (a person’s own browser) restricts nothing and reports nothing', () => {
    expect(parsePolicy(undefined)).toEqual({ policy: NO_POLICY, problems: [] });
    expect(parsePolicy({})).toEqual({ policy: NO_POLICY, problems: [] });
  });

  it('reads a complete, valid policy and names every key it set', () => {
    const { policy, problems } = parsePolicy({
      allowedSites: [SHOP, 'https://*.intranet.example'],
      blockedSites: ['*://bank.example.com'],
      mcpPairing: true,
      allowedMcpClients: ['Claude Desktop'],
      copilotEnabled: true,
      allowedModelEndpoints: ['https://gateway.example.com/v1', 'chrome-prompt-api'],
      approvalRequiredActions: ['orders.*', 'dom.type'],
      frozenActions: [{ action: 'payments.send', until: '2026-12-31T00:00:00Z' }],
      maxTokenLifetimeMinutes: 120,
      maxPairingLifetimeMinutes: 60,
      auditExport: { host: 'logs.example.com', port: 6514, tls: true, server_name: 'logs.example.com' },
    });
    expect(problems).toEqual([]);
    expect(policy.managed).toHaveLength(11);
    expect(policy.allowedSites?.map((s) => s.text)).toEqual([SHOP, 'https://*.intranet.example']);
    expect(policy.allowedMcpClients).toEqual(['claude desktop']);
    expect(policy.frozenActions).toEqual([{ pattern: { text: 'payments.send' }, until: at('2026-12-31T00:00:00Z') }]);
    expect(policy.auditExport).toEqual({ host: 'logs.example.com', port: 6514, tls: true, server_name: 'logs.example.com' });
  });

  it('an allow list with an unreadable entry keeps the readable ones and allows nothing for the bad one', () => {
    const { policy, problems } = parsePolicy({ allowedSites: [SHOP, 'shop.example.com/path', 'ftp://x.example'] });
    expect(policy.allowedSites?.map((s) => s.text)).toEqual([SHOP]);
    expect(problems.map((p) => p.path)).toEqual(['allowedSites[1]', 'allowedSites[2]']);
    expect(problems[0]).toMatchObject({ key: 'allowedSites', code: 'invalid_value', applied: 'that entry allows no site' });
  });

  it('an allow list that is not a list allows no site at all, never every site', () => {
    const { policy, problems } = parsePolicy({ allowedSites: 'https://shop.example.com' });
    expect(policy.allowedSites).toEqual([]);
    expect(problems).toEqual([expect.objectContaining({ key: 'allowedSites', applied: 'no site is allowed' })]);
    expect(siteVerdict(policy, SHOP).ok).toBe(false);
  });

  it('a block list with an unreadable entry blocks every site: Steward cannot know which one was meant', () => {
    const { policy, problems } = parsePolicy({ blockedSites: ['https://bank.example.com', 'bank'] });
    expect(problems).toEqual([expect.objectContaining({ path: 'blockedSites[1]', applied: 'every site is blocked' })]);
    expect(siteVerdict(policy, SHOP)).toMatchObject({ ok: false, reason: 'blocked' });
  });

  it('switches that are not true or false read as off', () => {
    const { policy, problems } = parsePolicy({ copilotEnabled: 'yes', mcpPairing: 1 });
    expect(policy.copilotEnabled).toBe(false);
    expect(policy.mcpPairing).toBe(false);
    expect(problems.map((p) => p.key).sort()).toEqual(['copilotEnabled', 'mcpPairing']);
  });

  it('an unreadable approval list makes every action need approval', () => {
    const { policy, problems } = parsePolicy({ approvalRequiredActions: ['orders.cancel', 'not an action!'] });
    expect(problems).toHaveLength(1);
    expect(actionVerdict(policy, 'dom.click', 0)).toEqual({ kind: 'needs_approval', pattern: '*' });
  });

  it('a frozen entry with an unreadable period stays frozen with no end; one with an unreadable action freezes every action', () => {
    const dated = parsePolicy({ frozenActions: [{ action: 'orders.cancel', until: 'next friday' }] });
    expect(dated.problems).toEqual([expect.objectContaining({ key: 'frozenActions', applied: 'orders.cancel is refused with no end date' })]);
    expect(actionVerdict(dated.policy, 'orders.cancel', at('2030-01-01T00:00:00Z'))).toEqual({ kind: 'frozen', pattern: 'orders.cancel' });
    expect(actionVerdict(dated.policy, 'orders.refund', 0)).toEqual({ kind: 'free' });
    const nameless = parsePolicy({ frozenActions: [{ action: 'cancel everything!', until: '2026-01-01T00:00:00Z' }] });
    expect(actionVerdict(nameless.policy, 'dom.click', 0)).toMatchObject({ kind: 'frozen', pattern: '*' });
  });

  it('a lifetime out of range caps every grant at one minute', () => {
    const { policy, problems } = parsePolicy({ maxTokenLifetimeMinutes: 0, maxPairingLifetimeMinutes: 12.5 });
    expect(policy.maxTokenLifetimeMinutes).toBe(1);
    expect(policy.maxPairingLifetimeMinutes).toBe(1);
    expect(problems).toHaveLength(2);
  });

  it('an audit export target that does not read is reported and sends nothing', () => {
    const { policy, problems } = parsePolicy({ auditExport: { host: 'logs.example.com', port: 99999, tls: false } });
    expect(policy.auditExport).toBeUndefined();
    expect(policy.managed).toEqual(['auditExport']);
    expect(problems).toEqual([expect.objectContaining({ key: 'auditExport', applied: 'no export until the target is fixed' })]);
  });

  it('client names and endpoints that do not read allow nothing in their place', () => {
    const { policy, problems } = parsePolicy({ allowedMcpClients: ['', 'Cursor'], allowedModelEndpoints: ['javascript:alert(1)'] });
    expect(policy.allowedMcpClients).toEqual(['cursor']);
    expect(policy.allowedModelEndpoints).toEqual([]);
    expect(problems.map((p) => p.path)).toEqual(['allowedMcpClients[0]', 'allowedModelEndpoints[0]']);
  });
});

describe('managed policy: site patterns', () => {
  /** The pattern an organisation's allowedSites entry reads as; undefined when it is refused (and reported). */
  const parseSitePattern = (text: string) => {
    const { policy, problems } = parsePolicy({ allowedSites: [text] });
    expect(problems.length).toBe(policy.allowedSites!.length === 1 ? 0 : 1);
    return policy.allowedSites![0];
  };

  it('an origin pattern without a port covers every port; with one, only that port', () => {
    expect(siteMatches(parseSitePattern('http://127.0.0.1')!, 'http://127.0.0.1:4100')).toBe(true);
    expect(siteMatches(parseSitePattern('http://127.0.0.1:4100')!, 'http://127.0.0.1:4101')).toBe(false);
    expect(siteMatches(parseSitePattern('https://shop.example.com:443')!, SHOP)).toBe(true);
  });

  it('*. covers the host and its subdomains, not look-alikes', () => {
    const p = parseSitePattern('https://*.example.com')!;
    expect(siteMatches(p, 'https://example.com')).toBe(true);
    expect(siteMatches(p, 'https://a.b.example.com')).toBe(true);
    expect(siteMatches(p, 'https://badexample.com')).toBe(false);
    expect(siteMatches(p, 'http://a.example.com')).toBe(false);
  });

  it('refuses paths, queries, other schemes and hosts with a star inside', () => {
    for (const bad of ['https://a.example/x', 'https://a.example?x', 'file:///etc', 'https://a*.example', 'https://', 'https://a.example:0']) expect(parseSitePattern(bad), bad).toBeUndefined();
  });
});

describe('managed policy: combined with the person’s own choices', () => {
  it('a blocked site is never read even though the person allowed it', () => {
    const { policy } = parsePolicy({ blockedSites: ['https://bank.example.com'] });
    expect(combineSites([SHOP, 'https://bank.example.com'], policy)).toEqual({ allowed: [SHOP], refused: ['https://bank.example.com'] });
  });

  it('with an allow list only the listed sites the person also allowed are read: the policy never adds a site', () => {
    const { policy } = parsePolicy({ allowedSites: [SHOP, 'https://clinic.example.com'] });
    expect(combineSites([SHOP, 'https://news.example.com'], policy)).toEqual({ allowed: [SHOP], refused: ['https://news.example.com'] });
  });

  it('the block list wins over the allow list', () => {
    const { policy } = parsePolicy({ allowedSites: ['https://*.example.com'], blockedSites: ['https://bank.example.com'] });
    expect(siteVerdict(policy, 'https://bank.example.com')).toMatchObject({ ok: false, reason: 'blocked' });
    expect(siteVerdict(policy, SHOP)).toEqual({ ok: true });
  });

  it('a token lifetime is at most the policy’s; a shorter one the person chose stays', () => {
    const { policy } = parsePolicy({ maxTokenLifetimeMinutes: 30, maxPairingLifetimeMinutes: 10 });
    expect(clampTtlMs(policy, 'token', 3_600_000)).toBe(1_800_000);
    expect(clampTtlMs(policy, 'token', 60_000)).toBe(60_000);
    expect(clampTtlMs(policy, 'pairing', 3_600_000)).toBe(600_000);
    expect(clampTtlMs(NO_POLICY, 'pairing', 3_600_000)).toBe(3_600_000);
  });

  it('the co-pilot runs only when the policy has it on and its endpoint is under an allowed one', () => {
    const { policy } = parsePolicy({ allowedModelEndpoints: ['https://gateway.example.com/v1'] });
    expect(modelVerdict(policy, { provider: 'openai', endpoint: 'https://gateway.example.com/v1' })).toEqual({ ok: true });
    expect(modelVerdict(policy, { provider: 'openai', endpoint: 'https://gateway.example.com/v10' })).toMatchObject({ ok: false, reason: 'endpoint_not_allowed' });
    expect(modelVerdict(policy, { provider: 'anthropic', endpoint: '' })).toMatchObject({ ok: false, reason: 'endpoint_not_allowed' });
    expect(modelVerdict(policy, { provider: 'prompt-api', endpoint: '' })).toMatchObject({ ok: false });
    expect(modelVerdict(parsePolicy({ allowedModelEndpoints: ['chrome-prompt-api'] }).policy, { provider: 'prompt-api', endpoint: '' })).toEqual({ ok: true });
    expect(modelVerdict(parsePolicy({ copilotEnabled: false }).policy, { provider: 'openai', endpoint: 'https://gateway.example.com/v1' })).toMatchObject({ reason: 'copilot_off' });
  });

  it('pairing: off for everyone, or only for the clients named (case-insensitive)', () => {
    expect(pairingVerdict(parsePolicy({ mcpPairing: false }).policy, 'Claude Desktop').ok).toBe(false);
    const { policy } = parsePolicy({ allowedMcpClients: ['Claude Desktop'] });
    expect(pairingVerdict(policy, 'claude desktop')).toEqual({ ok: true });
    expect(pairingVerdict(policy, 'evil-client')).toMatchObject({ ok: false });
    expect(pairingVerdict(NO_POLICY, 'anything')).toEqual({ ok: true });
  });

  it('pairing with issued keys: the name and the key must both be the ones the organisation listed', () => {
    const hash = 'ABCDEF'.repeat(10) + '0123';
    const { policy, problems } = parsePolicy({ mcpClientKeys: [{ name: ' Claude Desktop ', sha256: hash }, { name: 'Cursor', sha256: 'not-a-hash' }, 'Codex'] });
    expect(policy.mcpClientKeys).toEqual([{ name: 'claude desktop', sha256: hash.toLowerCase() }]);
    expect(problems.map((p) => [p.path, p.applied])).toEqual([
      ['mcpClientKeys[1]', 'that entry lets no client pair'],
      ['mcpClientKeys[2]', 'that entry lets no client pair'],
    ]);
    expect(pairingVerdict(policy, 'claude desktop', hash.toLowerCase())).toEqual({ ok: true });
    expect(pairingVerdict(policy, 'Claude Desktop')).toMatchObject({ ok: false, message: expect.stringContaining('presented none') });
    expect(pairingVerdict(policy, 'Claude Desktop', '0'.repeat(64))).toMatchObject({ ok: false, message: expect.stringContaining('not one your organisation issued') });
    // The right key under another name is refused too: a key belongs to the client it was issued for.
    expect(pairingVerdict(policy, 'Cursor', hash.toLowerCase())).toMatchObject({ ok: false });
    // A list that does not read: nobody pairs.
    expect(pairingVerdict(parsePolicy({ mcpClientKeys: 'Claude Desktop' }).policy, 'Claude Desktop', hash.toLowerCase())).toMatchObject({ ok: false });
    expect(policy.managed).toEqual(['mcpClientKeys']);
  });

  it('a frozen action is refused only within its period, and freezing wins over approval', () => {
    const { policy } = parsePolicy({
      approvalRequiredActions: ['orders.*'],
      frozenActions: [{ action: 'orders.cancel', from: '2026-12-01T00:00:00Z', until: '2026-12-08T00:00:00Z' }],
    });
    expect(actionVerdict(policy, 'orders.cancel', at('2026-12-06T12:00:00Z'))).toEqual({ kind: 'frozen', pattern: 'orders.cancel', until: at('2026-12-08T00:00:00Z') });
    expect(actionVerdict(policy, 'orders.cancel', at('2026-12-09T00:00:00Z'))).toEqual({ kind: 'needs_approval', pattern: 'orders.*' });
    expect(actionVerdict(policy, 'orders.cancel', at('2026-11-30T00:00:00Z'))).toEqual({ kind: 'needs_approval', pattern: 'orders.*' });
    expect(actionVerdict(policy, 'dom.click', at('2026-12-06T12:00:00Z'))).toEqual({ kind: 'free' });
  });

  it("audit export: the organisation's target overrides the person's; a target it set wrong sends nothing rather than to the person's", () => {
    const person = { host: 'my-collector.example', port: 514, tls: false };
    const org = { host: 'logs.example.com', port: 6514, tls: true, server_name: 'collector.example.com' };
    // No policy key: the person's own target, theirs to change.
    expect(exportTargetInForce(NO_POLICY, person)).toEqual({ target: person, managed: false });
    expect(exportTargetInForce(parsePolicy({ copilotEnabled: false }).policy, null)).toEqual({ target: null, managed: false });
    // The policy's target, handed on in the export's own shape, whatever the person set.
    expect(exportTargetInForce(parsePolicy({ auditExport: org }).policy, person)).toEqual({ target: org, managed: true });
    expect(exportTargetInForce(parsePolicy({ auditExport: org }).policy, null)).toEqual({ target: org, managed: true });
    // Invalid (a certificate name without TLS, or the old spelling): no export until fixed, and still the organisation's.
    for (const bad of [
      { host: 'logs.example.com', port: 514, tls: false, server_name: 'x.example.com' },
      { ...org, servername: 'collector.example.com' },
    ]) {
      const parsed = parsePolicy({ auditExport: bad });
      expect(parsed.problems.map((p) => p.key)).toEqual(['auditExport']);
      expect(exportTargetInForce(parsed.policy, person)).toEqual({ target: null, managed: true });
    }
  });
});
