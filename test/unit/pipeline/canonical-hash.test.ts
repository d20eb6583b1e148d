import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/base/canonical-json.ts';
import { inputHash, requestHash, sha256Hex } from '../../../src/base/hash.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('is independent of key insertion order', () => {
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('follows JSON.stringify for strings, numbers, undefined and arrays (JCS for JSON values)', () => {
    expect(canonicalJson({ s: 'é"\n\u2028', n: 1e21, m: -0, f: 0.1, u: undefined, a: [undefined, null, true] })).toBe('{"a":[null,null,true],"f":0.1,"m":0,"n":1e+21,"s":"é\\"\\n\u2028"}');
  });

  it('refuses what is not JSON', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/not a JSON number/);
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 300; i++) cur = (cur.a = {}) as Record<string, unknown>;
    expect(() => canonicalJson(deep)).toThrow(/too deeply/);
  });
});

describe('hashes', () => {
  it('sha256Hex matches a known vector', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('inputHash is sha256: + hex of the canonical input, the same whatever the key order', async () => {
    expect(await inputHash({})).toBe(`sha256:${await sha256Hex('{}')}`);
    expect(await inputHash({ a: 1, b: 2 })).toBe(await inputHash({ b: 2, a: 1 }));
    expect(await inputHash({ a: 1 })).not.toBe(await inputHash({ a: 2 }));
  });

  it('requestHash binds action and resource too', async () => {
    const r = { type: 'order', id: 'ORD-1' };
    expect(await requestHash('orders.cancel', r, {})).not.toBe(await requestHash('orders.view', r, {}));
    expect(await requestHash('orders.cancel', r, {})).not.toBe(await requestHash('orders.cancel', { type: 'order', id: 'ORD-2' }, {}));
  });
});
