import { describe, expect, it } from 'vitest';
import { pixelHash } from '../../../src/observation/dom/pixel-hash.ts';
import { RefRegistry } from '../../../src/observation/dom/refs.ts';

const fakeElement = () => ({}) as Element;

describe('RefRegistry', () => {
  it('gives the same element the same ref, and another element another ref', () => {
    const refs = new RefRegistry();
    const a = fakeElement();
    const b = fakeElement();
    expect(refs.refFor(a)).toBe('e1');
    expect(refs.refFor(b)).toBe('e2');
    expect(refs.refFor(a)).toBe('e1');
    expect(refs.peek(b)).toBe('e2');
    expect(refs.peek(fakeElement())).toBeUndefined();
    expect(refs.lookup('e1')).toBe(a);
    expect(refs.lookup('e99')).toBeUndefined();
  });

  it('never reuses a ref, even for a look-alike element', () => {
    const refs = new RefRegistry('x');
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(refs.refFor(fakeElement()));
    expect(seen.size).toBe(1000);
    expect(refs.issued).toBe(1000);
    expect(refs.refFor(fakeElement())).toBe('x1001');
  });
});

describe('pixelHash', () => {
  it('is stable for the same pixels and changes with any byte', () => {
    const a = new Uint8ClampedArray(16 * 16 * 4).fill(7);
    const b = a.slice();
    expect(pixelHash(a)).toBe(pixelHash(b));
    expect(pixelHash(a)).toMatch(/^[0-9a-f]{8}$/);
    b[500] = 8;
    expect(pixelHash(a)).not.toBe(pixelHash(b));
  });
});
