import { describe, expect, it } from 'vitest';
import { contractUrlFor, fetchContract } from '../../../src/contract/discovery.ts';
import { parseLinkHeader } from '../../../src/contract/link-header.ts';
import { MAX_RESPONSE_BYTES } from '../../../src/contract/ports.ts';
import { ORIGIN, RecordingPort, T0, discoverContract, json, shopContract } from './helpers.ts';

const PAGE = `${ORIGIN}/orders/ORD-1024`;
const CONTRACT_URL = `${ORIGIN}/agent/v1/contract`;
const now = () => T0;

describe('parseLinkHeader', () => {
  it('reads links, params, quoted values and several rels', () => {
    expect(parseLinkHeader('</agent/v1/contract>; rel="agent-contract", <https://cdn.example/s.css>; rel=preload; as=style')).toEqual([
      { href: '/agent/v1/contract', rels: ['agent-contract'] },
      { href: 'https://cdn.example/s.css', rels: ['preload'] },
    ]);
    expect(parseLinkHeader('</c>;rel="Agent-Contract  alternate";title="a, \\"b\\"; c"')).toEqual([{ href: '/c', rels: ['agent-contract', 'alternate'] }]);
  });

  it('counts only the first rel, and leaves out links about another resource (anchor)', () => {
    expect(parseLinkHeader('</a>; rel=next; rel=agent-contract')).toEqual([{ href: '/a', rels: ['next'] }]);
    expect(parseLinkHeader('</a>; anchor="/other"; rel=agent-contract, </b>; rel=agent-contract')).toEqual([{ href: '/b', rels: ['agent-contract'] }]);
  });

  it('yields nothing for a header that does not parse', () => {
    for (const bad of [
      '/agent/v1/contract; rel=agent-contract',
      '</a; rel=agent-contract',
      '</a>; rel="agent-contract',
      '</a> rel=agent-contract',
      '</a>; =x',
      `</a>; rel=agent-contract, ${'x'.repeat(20_000)}`,
    ]) {
      expect(parseLinkHeader(bad), bad).toEqual([]);
    }
  });
});

describe('contractUrlFor', () => {
  it('resolves the <link> href against the page', () => {
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: '/agent/v1/contract' })).toEqual({ ok: true, value: CONTRACT_URL });
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: '../agent/v1/contract#x' })).toEqual({ ok: true, value: CONTRACT_URL });
  });

  it("prefers the server's Link header over the page's <link>", () => {
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: '/user-content/fake.json', linkHeader: '</agent/v1/contract>; rel="agent-contract"' })).toEqual({ ok: true, value: CONTRACT_URL });
  });

  it('ignores Link headers with other rels and falls back to the <link>', () => {
    expect(contractUrlFor({ pageUrl: PAGE, linkHeader: '</x>; rel="agent-contracts", </y>; rel=contract' })).toMatchObject({ ok: false, error: { code: 'no_contract' } });
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: '/agent/v1/contract', linkHeader: '</x>; rel="preload"' })).toEqual({ ok: true, value: CONTRACT_URL });
  });

  it('refuses a contract on another origin, even another port', () => {
    for (const href of ['http://evil.example/contract', '//evil.example/contract', 'http://localhost:4101/agent/v1/contract', 'https://localhost:4100/agent/v1/contract']) {
      expect(contractUrlFor({ pageUrl: PAGE, linkHref: href }), href).toMatchObject({ ok: false, error: { code: 'cross_origin' } });
    }
    expect(contractUrlFor({ pageUrl: PAGE, linkHeader: '<http://evil.example/c>; rel=agent-contract', linkHref: '/agent/v1/contract' })).toEqual({ ok: true, value: CONTRACT_URL });
  });

  it('refuses pages and hrefs that are not http(s)', () => {
    expect(contractUrlFor({ pageUrl: 'chrome://settings', linkHref: '/c' })).toMatchObject({ ok: false, error: { code: 'bad_url' } });
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: 'javascript:alert(1)' })).toMatchObject({ ok: false, error: { code: 'bad_url' } });
    expect(contractUrlFor({ pageUrl: PAGE, linkHref: '   ' })).toMatchObject({ ok: false, error: { code: 'no_contract' } });
  });
});

describe('discoverContract', () => {
  const serving = (body: unknown, status = 200, contentType = 'application/agent-contract+json') => new RecordingPort(() => json(status, body, { 'content-type': contentType }));

  it('fetches and parses the contract from the page origin, unsigned and without cookies', async () => {
    const port = serving(shopContract());
    const found = await discoverContract(port, { pageUrl: PAGE, linkHref: '/agent/v1/contract' }, now);
    expect(found).toEqual({ ok: true, value: { origin: ORIGIN, contract_url: CONTRACT_URL, contract: shopContract(), fetched_at: T0 } });
    expect(port.requests).toHaveLength(1);
    expect(port.last).toMatchObject({ method: 'GET', url: CONTRACT_URL });
    expect(port.last.withCredentials).toBeUndefined();
    expect(port.last.headers).not.toHaveProperty('authorization');
  });

  it('accepts application/json with parameters', async () => {
    const found = await discoverContract(serving(shopContract(), 200, 'application/json; charset=utf-8'), { pageUrl: PAGE, linkHref: '/agent/v1/contract' }, now);
    expect(found.ok).toBe(true);
  });

  it('refuses a contract that speaks for another origin', async () => {
    const found = await discoverContract(serving(shopContract('http://localhost:4101')), { pageUrl: PAGE, linkHref: '/agent/v1/contract' }, now);
    expect(found).toMatchObject({ ok: false, error: { code: 'origin_mismatch' } });
  });

  it('never fetches a cross-origin contract', async () => {
    const port = serving(shopContract());
    expect(await discoverContract(port, { pageUrl: PAGE, linkHref: 'http://evil.example/c' }, now)).toMatchObject({ ok: false, error: { code: 'cross_origin' } });
    expect(await fetchContract(port, 'http://evil.example/c', ORIGIN, now)).toMatchObject({ ok: false, error: { code: 'cross_origin' } });
    expect(port.requests).toHaveLength(0);
  });

  it('says what is wrong with an answer that is not a contract', async () => {
    const hints = { pageUrl: PAGE, linkHref: '/agent/v1/contract' };
    expect(await discoverContract(serving({ spec: 'steward-contract/1' }), hints, now)).toMatchObject({ ok: false, error: { code: 'malformed' } });
    expect(await discoverContract(serving(shopContract(), 200, 'text/html'), hints, now)).toMatchObject({ ok: false, error: { code: 'malformed', message: expect.stringContaining('text/html') } });
    expect(await discoverContract(serving(shopContract(), 404), hints, now)).toMatchObject({ ok: false, error: { code: 'unreachable', message: expect.stringContaining('404') } });
    expect(await discoverContract(new RecordingPort(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '<html>' })), hints, now)).toMatchObject({
      ok: false,
      error: { code: 'malformed' },
    });
    const huge = new RecordingPort(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MAX_RESPONSE_BYTES), truncated: true }));
    expect(await discoverContract(huge, hints, now)).toMatchObject({ ok: false, error: { code: 'malformed', message: expect.stringContaining('larger') } });
    const down = new RecordingPort(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await discoverContract(down, hints, now)).toMatchObject({ ok: false, error: { code: 'unreachable', message: expect.stringContaining('Failed to fetch') } });
  });

  it('refuses a contract whose endpoints leave the origin', async () => {
    const contract = { ...shopContract(), endpoints: { ...shopContract().endpoints, execute: '//evil.example/execute' } };
    expect(await discoverContract(serving(contract), { pageUrl: PAGE, linkHref: '/agent/v1/contract' }, now)).toMatchObject({
      ok: false,
      error: { code: 'malformed', message: expect.stringContaining('endpoints.execute') },
    });
  });
});
