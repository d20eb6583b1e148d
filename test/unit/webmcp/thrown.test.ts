import { describe, expect, it } from 'vitest';
import { boundMessage, describeThrown, quotePageError, toErrorCode } from '../../../src/webmcp/thrown.ts';
import { PageToolError, toolTimeoutMessage } from '../../../src/protocol/page-tool-error.ts';

describe('what a page’s tool threw', () => {
  it('an Error keeps its message; a specific error name becomes the code, the generic one none', () => {
    expect(describeThrown(new RangeError('SKU-7 is out of stock'))).toEqual({ code: 'RANGE_ERROR', message: 'SKU-7 is out of stock', truncated: false, untrusted: true });
    expect(describeThrown(new Error('plain'))).toEqual({ message: 'plain', truncated: false, untrusted: true });
    expect(describeThrown(new DOMException('gone', 'NotFoundError'))).toMatchObject({ code: 'NOT_FOUND_ERROR', message: 'gone' });
  });

  it('a `{code, message}` object keeps both, its code in upper snake case, ahead of any name', () => {
    expect(describeThrown({ code: 'slot-unavailable', message: 'No slot before Friday' })).toEqual({ code: 'SLOT_UNAVAILABLE', message: 'No slot before Friday', truncated: false, untrusted: true });
    const e = Object.assign(new TypeError('bad'), { code: 'outOfStock' });
    expect(describeThrown(e).code).toBe('OUT_OF_STOCK');
    expect(describeThrown({ code: 404, message: 'missing' }).code).toBe('404');
  });

  it('strings, numbers, null, undefined and plain objects become messages without a code', () => {
    expect(describeThrown('Coupon expired')).toEqual({ message: 'Coupon expired', truncated: false, untrusted: true });
    expect(describeThrown(42)).toMatchObject({ message: '42' });
    expect(describeThrown(null)).toMatchObject({ message: 'null' });
    expect(describeThrown(undefined)).toMatchObject({ message: 'undefined' });
    expect(describeThrown({ reason: 'nope' })).toEqual({ message: '{"reason":"nope"}', truncated: false, untrusted: true });
    expect(describeThrown('')).toMatchObject({ message: '(no message)' });
  });

  it('a megabyte message is cut to 500 characters and says so; the result always fits the schema', () => {
    const huge = describeThrown(new Error(`START ${'x'.repeat(1_000_000)}`));
    expect(huge.truncated).toBe(true);
    expect(huge.message).toHaveLength(501);
    expect(huge.message.startsWith('START x')).toBe(true);
    expect(huge.message.endsWith('…')).toBe(true);
    expect(PageToolError.safeParse(huge).success).toBe(true);
    expect(PageToolError.safeParse(describeThrown({ code: 'y'.repeat(500), message: 'm' })).success).toBe(true);
  });

  it('a hostile value cannot break it: throwing getters, cycles, throwing toString', () => {
    const getters = {
      get message(): string {
        throw new Error('no');
      },
      get code(): string {
        throw new Error('no');
      },
    };
    expect(describeThrown(getters)).toMatchObject({ untrusted: true });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeThrown(cyclic).message).toBe('[object Object]');
    const hostile = Object.create(null, {
      toString: {
        value: () => {
          throw new Error('no');
        },
      },
    }) as object;
    expect(describeThrown(hostile).message).toBe('{}');
  });

  it('control and bidi characters are blanked; newlines stay', () => {
    expect(boundMessage('a\u0000b\u202ec\nd')).toEqual({ message: 'a b c\nd', truncated: false });
  });

  it('codes are upper snake case or nothing', () => {
    expect(toErrorCode('RangeError')).toBe('RANGE_ERROR');
    expect(toErrorCode('E_STOCK')).toBe('E_STOCK');
    expect(toErrorCode('  --  ')).toBeUndefined();
    expect(toErrorCode({})).toBeUndefined();
    expect(toErrorCode('x'.repeat(200))).toHaveLength(64);
  });

  it('quotes the page’s words as such, and words a timeout in seconds', () => {
    expect(quotePageError({ code: 'OUT', message: 'gone', truncated: true, untrusted: true })).toBe('[OUT] “gone” (cut short)');
    expect(toolTimeoutMessage(1_500)).toBe("The page's tool did not answer within 1.5 s; it may still be running.");
    expect(toolTimeoutMessage(60_000)).toContain('within 60 s');
  });
});
