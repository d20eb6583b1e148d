import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientSlug, codeDigits, constantTimeEqual, newClaimSecret, newPairingCode } from '../../../src/mcp/pairing-code.ts';
import { PairingCode } from '../../../src/protocol/bridge.ts';

const random = (n: number) => new Uint8Array(randomBytes(n));

describe('pairing codes', () => {
  it('are six digits as NNN-NNN, and vary from one request to the next', () => {
    const codes = Array.from({ length: 200 }, () => newPairingCode(random));
    for (const c of codes) expect(PairingCode.safeParse(c).success, c).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it('use every digit in every place (no fixed or biased positions)', () => {
    const seen = Array.from({ length: 6 }, () => new Set<string>());
    for (let i = 0; i < 500; i++) [...codeDigits(newPairingCode(random))!].forEach((d, p) => seen[p]!.add(d));
    for (const s of seen) expect(s.size).toBe(10);
  });

  it('redraws a random value that would bias the digits', () => {
    const draws = [
      [0xff, 0xff, 0xff, 0xff],
      [0x00, 0x00, 0x01, 0x02],
    ];
    const scripted = (n: number) => new Uint8Array(draws.shift()!.slice(0, n));
    expect(newPairingCode(scripted)).toBe('000-258');
  });

  it('reads what a person types: spaces and dashes are ignored, anything but six digits is not a code', () => {
    expect(codeDigits(' 483 192 ')).toBe('483192');
    expect(codeDigits('483-192')).toBe('483192');
    expect(codeDigits('48319')).toBeUndefined();
    expect(codeDigits('48a-192')).toBeUndefined();
  });
});

describe('constantTimeEqual', () => {
  it('is equality: a difference anywhere, or a length difference, is unequal', () => {
    expect(constantTimeEqual('483192', '483192')).toBe(true);
    expect(constantTimeEqual('483192', '083192')).toBe(false);
    expect(constantTimeEqual('483192', '483190')).toBe(false);
    expect(constantTimeEqual('483192', '48319')).toBe(false);
    expect(constantTimeEqual('483192', '4831920')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('reads every character of the expected value even when the first already differs', () => {
    const read: number[] = [];
    const expected = new Proxy(new String('483192'), {
      get(target, prop, receiver) {
        if (prop === 'charCodeAt')
          return (i: number) => {
            read.push(i);
            return target.charCodeAt(i);
          };
        if (prop === 'length') return target.length;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    }) as unknown as string;
    expect(constantTimeEqual(expected, '999999')).toBe(false);
    expect(read).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('claim secrets and slugs', () => {
  it('a claim secret is 32 random bytes in base64url', () => {
    const s = newClaimSecret(random);
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newClaimSecret(random)).not.toBe(s);
  });

  it('names an agent after its client in lower-case words', () => {
    expect(clientSlug('Claude Desktop')).toBe('claude-desktop');
    expect(clientSlug('  VS Code (Copilot) ')).toBe('vs-code-copilot');
    expect(clientSlug('Café ✨')).toBe('cafe');
    expect(clientSlug('✨✨')).toBe('client');
    expect(clientSlug('x'.repeat(100)).length).toBeLessThanOrEqual(40);
  });
});
