import { describe, expect, it } from 'vitest';
import { runGatewayBench } from '../../../bench/gateway.ts';
import { BenchRow } from '../../../bench/bench-row.ts';

describe('bench/gateway.ts', () => {
  it('produces the four gateway overhead rows in the BenchRow shape', { timeout: 60_000 }, async () => {
    const rows = await runGatewayBench({ n: 5, warmup: 1 });
    expect(rows.map((r) => [r.metric, r.case])).toEqual([
      ['gateway.overhead_p50_ms', 'read_only'],
      ['gateway.overhead_p95_ms', 'read_only'],
      ['gateway.overhead_p50_ms', 'consequential_preapproved'],
      ['gateway.overhead_p95_ms', 'consequential_preapproved'],
    ]);
    for (const r of rows) {
      expect(BenchRow.parse(r)).toEqual(r);
      expect(r.value).toBeGreaterThan(0);
    }
    expect(rows[1]!.value).toBeGreaterThanOrEqual(rows[0]!.value);
  });
});
