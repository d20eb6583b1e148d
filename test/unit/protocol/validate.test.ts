import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActionRequest } from '../../../src/protocol/action.ts';
import { StewardError } from '../../../src/protocol/errors.ts';
import { DurableMemoryRecord } from '../../../src/protocol/memory.ts';
import { ContentReportMessage } from './wire-schema.ts';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import { parseOrError } from '../../../src/protocol/validate.ts';
import { example } from './helpers.ts';

describe('parseOrError', () => {
  it('returns the parsed value on success (with defaults applied)', () => {
    const { input: _, ...noInput } = example('actionRequest');
    const r = parseOrError(ActionRequest, noInput);
    expect(r).toMatchObject({ ok: true, value: { input: {} } });
  });
  it('returns a complete INVALID_INPUT error with readable paths', () => {
    const r = parseOrError(ActionRequest, { ...example('actionRequest'), preconditions: { state_version: 'x' } }, { what: 'action request' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code: 'INVALID_INPUT', retryable: false });
    expect(r.error.recovery_hint).toMatch(/Fix the input/);
    expect(r.error.issues).toEqual([{ path: 'preconditions.state_version', message: expect.stringMatching(/fingerprint/) }]);
    expect(r.error.message).toMatch(/^Invalid action request: preconditions\.state_version: /);
    expect(StewardError.safeParse(r.error).success).toBe(true);
  });
  it('uses INVALID_MESSAGE for messages between contexts', () => {
    const r = parseOrError(ContentReportMessage, { type: 'content/tools', api: 'native' }, { code: 'INVALID_MESSAGE' });
    expect(r.ok || r.error.code).toBe('INVALID_MESSAGE');
    if (!r.ok) expect(r.error.message).toMatch(/^Invalid message: /);
  });
  it('says "required" for missing fields and counts further issues', () => {
    const r = parseOrError(ObservedState, {});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.issues.find((i) => i.path === 'resource')?.message).toBe('is required (expected object)');
    expect(r.error.message).toMatch(/\(and \d+ more issues\)$/);
  });
  it('caps the issue list and the length of hostile keys', () => {
    const hostile = { ...example('observedState'), conflicts: Array.from({ length: 200 }, () => 'Not Snake') };
    const r = parseOrError(ObservedState, hostile, { maxIssues: 5 });
    expect(!r.ok && r.error.issues.length).toBe(5);
    const longKey = 'k'.repeat(5000);
    const r2 = parseOrError(DurableMemoryRecord, {
      id: 'mem_1',
      layer: 'durable',
      kind: 'artifact',
      payload: { [`${longKey}_selector`]: 1 },
      recorded_at: '2026-08-03T11:40:00Z',
    });
    expect(!r2.ok && r2.error.issues[0]!.path.length).toBeLessThanOrEqual(1024);
  });
  it('formats paths', () => {
    /** The issue path parseOrError reports for a value wrong exactly at `path` (a string where a number belongs). */
    const formatPath = (path: readonly (string | number)[]) => {
      const wrongAt = (i: number): [z.ZodType, unknown] => {
        if (i === path.length) return [z.number(), 'not a number'];
        const [schema, value] = wrongAt(i + 1);
        const key = path[i]!;
        if (typeof key === 'number') return [z.array(schema.or(z.null())), [...Array<null>(key).fill(null), value]];
        return [z.object({ [key]: schema }), { [key]: value }];
      };
      const r = parseOrError(...wrongAt(0));
      expect(r.ok).toBe(false);
      return r.ok ? undefined : r.error.issues.map((issue) => issue.path).join(' | ');
    };
    expect(formatPath(['preconditions', 'state_version'])).toBe('preconditions.state_version');
    expect(formatPath(['facts', 0, 'sources', 1])).toBe('facts[0].sources[1]');
    expect(formatPath(['payload', 'a b'])).toBe('payload["a b"]');
    expect(formatPath([])).toBe('');
  });
});

describe('the module is pure', () => {
  const dir = fileURLToPath(new URL('../../../src/protocol/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  it('imports nothing but zod and its own files, and touches no chrome / DOM / Node API', () => {
    for (const file of files) {
      const src = readFileSync(dir + file, 'utf8');
      const code = src.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // comments may mention these words
      for (const m of code.matchAll(/from\s+'([^']+)'/g)) expect(m[1], `${file} imports ${m[1]}`).toMatch(/^(zod|\.\/[\w-]+\.ts)$/);
      expect(code, file).not.toMatch(/\bchrome\.|\bdocument\.|\bwindow\.|\bprocess\.|\brequire\(/);
    }
  });
});
