import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeepAlive } from '../../../../src/background/copilot/keep-alive.ts';

describe('keeping the worker alive during a run', () => {
  afterEach(() => vi.useRealTimers());

  it('calls an extension API every 20 s while a run is active, and stops when none is', async () => {
    vi.useFakeTimers();
    const ping = vi.fn(async () => undefined);
    const keep = new KeepAlive(ping);
    keep.update(1);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(ping).toHaveBeenCalledTimes(3);
    keep.update(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(ping).toHaveBeenCalledTimes(4);
    keep.update(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(ping).toHaveBeenCalledTimes(4);
  });
});
