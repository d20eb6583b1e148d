import { describe, expect, it } from 'vitest';
import { afterToolFailure } from '../../../../src/pipeline/execution/after-failure.ts';

describe('after a page’s tool said it failed', () => {
  const before = { url: 'http://lab.test/webmcp/failures', state_version: 'fp-1' };

  it('failed when the same page is at the same state_version (a change of hash alone is no change)', () => {
    expect(afterToolFailure(before, { ...before })).toBe('failed');
    expect(afterToolFailure(before, { ...before, url: `${before.url}#done` })).toBe('failed');
  });

  it('unknown when the state moved, the page changed, or nothing could be observed', () => {
    expect(afterToolFailure(before, { ...before, state_version: 'fp-2' })).toBe('unknown');
    expect(afterToolFailure(before, { ...before, url: 'http://lab.test/elsewhere' })).toBe('unknown');
    expect(afterToolFailure(before, null)).toBe('unknown');
  });
});
