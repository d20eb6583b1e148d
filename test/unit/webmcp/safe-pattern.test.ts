import { describe, expect, it } from 'vitest';
import { judgePattern } from '../../../src/webmcp/safe-pattern.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const MAX_PATTERN_CHARS = 256;

describe('judgePattern', () => {
  it.each([
    ['^(a+)+$', 'nested quantifiers'],
    ['(a|a)*', 'overlapping alternatives'],
    ['(a|aa)+', 'overlapping alternatives'],
    ['(.*a){20}', 'unbounded loop repeated 20 times'],
    ['([a-z]+)*$', 'nested quantifiers'],
    ['^(\\w+\\s?)*$', 'nested quantifiers, the classic "name" pattern'],
    ['^(a?){30}a{30}$', 'an optional repeated 30 times'],
    ['(\\d|\\w)+x', 'alternatives that overlap through classes'],
    ['^(|a)+$', 'an empty alternative'],
    ['^(?:(?=a+)a)*$', 'a repeated lookahead that repeats'],
  ])('refuses the catastrophic %s (%s)', (pattern) => {
    const verdict = judgePattern(pattern);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(JSON.stringify(pattern));
  });

  it('refuses backreferences, including named ones', () => {
    expect(judgePattern('^(a+)\\1$')).toMatchObject({ ok: false, reason: expect.stringContaining('backreferences') });
    expect(judgePattern('^(?<x>a)\\k<x>$')).toMatchObject({ ok: false, reason: expect.stringContaining('backreferences') });
  });

  it('refuses chains of overlapping unbounded loops (polynomial time)', () => {
    expect(judgePattern('^\\d*\\d*\\d*$')).toMatchObject({ ok: false, reason: expect.stringContaining('n^3') });
    expect(judgePattern('.*a.*b')).toMatchObject({ ok: false, reason: expect.stringContaining('n^3') });
  });

  it('refuses what is too long or not a valid u-mode pattern', () => {
    expect(judgePattern('a'.repeat(MAX_PATTERN_CHARS + 1))).toMatchObject({ ok: false, reason: expect.stringContaining(`limit ${MAX_PATTERN_CHARS}`) });
    expect(judgePattern('(')).toMatchObject({ ok: false, reason: expect.stringContaining('not a valid regular expression') });
    expect(judgePattern('\\-')).toMatchObject({ ok: false }); // identity escape of "-" is an error in u mode
  });

  it.each([
    ['^[A-Z]{3}-\\d{4}$', 1],
    ['^APT-\\d+$', 1],
    ['^\\d{4}-\\d{2}-\\d{2}$', 1],
    ['^[a-z]+@[a-z]+\\.[a-z]+$', 1],
    ['^((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)$', 1],
    ['^(\\d{1,3}\\.){3}\\d{1,3}$', 1],
    ['^(ab|cd)+$', 1],
    ['^(?=.*\\d)(?=.*[a-z]).{8,}$', 1],
    ['[a-z]+x', 2],
    ['^\\p{L}+$', 1],
    ['^[^\\s@]+@[^\\s@]+$', 1],
  ])('accepts the ordinary %s (work ~ n^%i)', (pattern, exponent) => {
    expect(judgePattern(pattern)).toEqual({ ok: true, exponent });
  });
});
