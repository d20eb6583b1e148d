import { createHash } from 'node:crypto';
import { jwkToKeyID } from 'web-bot-auth';
import { helpers } from 'web-bot-auth/crypto';
import { describe, expect, it } from 'vitest';
import { agentKeyFromPair } from '../../../src/contract/agent-key.ts';
import { signedRequest } from '../../../src/contract/signed-request.ts';
import { ORIGIN, T0, makeAgentKey, signatureInput, verifySignature } from './helpers.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const SIGNATURE_VALIDITY_S = 60;

const realClock = () => Date.now();
const EXECUTE = `${ORIGIN}/agent/v1/actions/execute`;

/** The Content-Digest header of a signed POST of `body`. */
async function contentDigest(body: string): Promise<string> {
  const { key } = await makeAgentKey();
  const digest = (await signedRequest({ method: 'POST', url: EXECUTE, body }, key, realClock)).headers['content-digest'];
  if (digest === undefined) throw new Error('a POST with a body carries no Content-Digest');
  return digest;
}

/** The Signature-Agent header of a signed GET of `url` (`keyDirectoryPath`: the contract's, when it names one). */
async function signatureAgent(url: URL, keyDirectoryPath?: string): Promise<string | undefined> {
  const { key } = await makeAgentKey();
  return (await signedRequest({ method: 'GET', url: url.href, ...(keyDirectoryPath !== undefined ? { keyDirectoryPath } : {}) }, key, realClock)).headers['signature-agent'];
}

describe('agent key', () => {
  it('is a non-extractable Ed25519 key whose keyid is the RFC 7638 thumbprint of its public JWK', async () => {
    const { key, pair } = await makeAgentKey();
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    expect(key.alg).toBe('ed25519');
    expect(key.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(key.publicJwk).not.toHaveProperty('d');
    expect(key.keyid).toBe(await jwkToKeyID({ kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x }, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE));
    const signature = new Uint8Array(await key.sign('hello'));
    expect(await crypto.subtle.verify('Ed25519', pair.publicKey, signature, new TextEncoder().encode('hello'))).toBe(true);
    expect(await crypto.subtle.verify('Ed25519', pair.publicKey, signature, new TextEncoder().encode('hellO'))).toBe(false);
  });

  it('refuses a key pair that is not Ed25519', async () => {
    const ecdsa = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    await expect(agentKeyFromPair(ecdsa)).rejects.toThrow(/Ed25519/);
  });
});

describe('signedRequest', () => {
  it('signs a GET over @method @authority @path signature-agent authorization, and a site verifies it', async () => {
    const { key, pair } = await makeAgentKey();
    const req = await signedRequest({ method: 'GET', url: `${ORIGIN}/agent/v1/resources/order/ORD-1024`, token: 'abc.def.ghi' }, key, realClock);
    expect(req.headers['signature-agent']).toBe(`"${ORIGIN}/.well-known/http-message-signatures-directory"`);
    expect(req.headers.authorization).toBe('Bearer abc.def.ghi');
    expect(req.body).toBeUndefined();
    expect(req.headers).not.toHaveProperty('content-digest');
    expect(req.withCredentials).toBeUndefined();
    expect(await verifySignature(req, pair.publicKey)).toEqual(['@method', '@authority', '@path', 'signature-agent', 'authorization']);
    const { params } = signatureInput(req);
    expect(params.get('keyid')).toBe(key.keyid);
    expect(params.get('alg')).toBe('ed25519');
    expect(params.get('tag')).toBe('web-bot-auth');
    expect(Buffer.from(String(params.get('nonce')), 'base64')).toHaveLength(64);
  });

  it('covers @query, idempotency-key, if-match and content-digest when the request has them', async () => {
    const { key, pair } = await makeAgentKey();
    const body = '{"action":"orders.cancel"}';
    const req = await signedRequest({ method: 'POST', url: `${EXECUTE}?dry=1`, body, token: 'abc.def.ghi', idempotencyKey: 'act_8f31', ifMatch: 17 }, key, realClock);
    expect(await verifySignature(req, pair.publicKey)).toEqual(['@method', '@authority', '@path', '@query', 'signature-agent', 'authorization', 'idempotency-key', 'if-match', 'content-digest']);
    expect(req.headers['idempotency-key']).toBe('act_8f31');
    expect(req.headers['if-match']).toBe('"17"');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toBe(body);
    expect(req.headers['content-digest']).toBe(`sha-256=:${createHash('sha256').update(body).digest('base64')}:`);
  });

  it('a changed covered header, path or method no longer verifies', async () => {
    const { key, pair } = await makeAgentKey();
    const req = await signedRequest({ method: 'POST', url: EXECUTE, body: '{}', token: 'abc.def.ghi', idempotencyKey: 'act_1' }, key, realClock);
    await expect(verifySignature({ ...req, headers: { ...req.headers, 'idempotency-key': 'act_2' } }, pair.publicKey)).rejects.toThrow(/invalid signature/);
    await expect(verifySignature({ ...req, headers: { ...req.headers, 'content-digest': await contentDigest('{"x":1}') } }, pair.publicKey)).rejects.toThrow(/invalid signature/);
    await expect(verifySignature({ ...req, url: `${ORIGIN}/agent/v1/tokens/revoke` }, pair.publicKey)).rejects.toThrow(/invalid signature/);
    await expect(verifySignature({ ...req, method: 'GET' }, pair.publicKey)).rejects.toThrow(/invalid signature/);
    await expect(verifySignature({ ...req, url: 'http://localhost:4101/agent/v1/actions/execute' }, pair.publicKey)).rejects.toThrow(/invalid signature/);
    const other = await makeAgentKey();
    await expect(verifySignature(req, other.pair.publicKey)).rejects.toThrow(/invalid signature/);
  });

  it('Content-Digest is RFC 9530 sha-256 of the exact body bytes (UTF-8)', async () => {
    // RFC 9530 §2 example.
    expect(await contentDigest('{"hello": "world"}')).toBe('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
    expect(await contentDigest('{"name":"Zoë"}')).toBe(`sha-256=:${createHash('sha256').update('{"name":"Zoë"}', 'utf8').digest('base64')}:`);
  });

  it('is valid for 60 s from the injected clock, never longer than the site accepts', async () => {
    const { key } = await makeAgentKey();
    const req = await signedRequest({ method: 'GET', url: EXECUTE }, key, () => T0 + 999);
    const { params } = signatureInput(req);
    expect(params.get('created')).toBe(T0 / 1000);
    expect(SIGNATURE_VALIDITY_S).toBe(60);
    expect(params.get('expires')).toBe(T0 / 1000 + 60);
    const short = signatureInput(await signedRequest({ method: 'GET', url: EXECUTE, maxValidityS: 20 }, key, () => T0)).params;
    expect(Number(short.get('expires')) - Number(short.get('created'))).toBe(20);
  });

  it('a signature made ten minutes ago has expired', async () => {
    const { key, pair } = await makeAgentKey();
    const req = await signedRequest({ method: 'GET', url: EXECUTE }, key, () => Date.now() - 600_000);
    await expect(verifySignature(req, pair.publicKey)).rejects.toThrow(/expired/i);
  });

  it('names the key directory of the site it is sent to, as an sf-string (the contract may move it)', async () => {
    expect(await signatureAgent(new URL('https://shop.example/a/b?c=1'))).toBe('"https://shop.example/.well-known/http-message-signatures-directory"');
    expect(await signatureAgent(new URL('https://shop.example/a'), '/agent/keys')).toBe('"https://shop.example/agent/keys"');
  });

  it('sends cookies only when asked (the token grant)', async () => {
    const { key } = await makeAgentKey();
    expect((await signedRequest({ method: 'POST', url: `${ORIGIN}/agent/v1/tokens`, body: '{}', withCredentials: true }, key, realClock)).withCredentials).toBe(true);
  });

  it('refuses a header value with a line break or non-ASCII (a hostile token cannot inject headers), and a non-http URL', async () => {
    const { key } = await makeAgentKey();
    await expect(signedRequest({ method: 'GET', url: EXECUTE, token: 'abc\r\nX-Evil: 1' }, key, realClock)).rejects.toThrow(/visible ASCII/);
    await expect(signedRequest({ method: 'GET', url: EXECUTE, idempotencyKey: 'äct' }, key, realClock)).rejects.toThrow(/visible ASCII/);
    await expect(signedRequest({ method: 'GET', url: EXECUTE, ifMatch: -1 }, key, realClock)).rejects.toThrow(/If-Match/);
    await expect(signedRequest({ method: 'GET', url: 'file:///etc/passwd' }, key, realClock)).rejects.toThrow(/http/);
  });
});
