import { writeFileSync } from 'node:fs';
import { BenchRow, type BenchRow as Row } from './bench-row.ts';

export type { Row };

/** Median and percentiles of a sample, in the sample's unit. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const median = (values: number[]) => percentile(values, 50);

const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);

/** Prints the table (with the ratio to each row's anchor) and writes bench-results.json. */
export function report(rows: Row[], file = 'bench-results.json'): void {
  const valid = rows.map((r) => BenchRow.parse(r));
  const table = valid.map((r) => ({
    metric: r.metric,
    case: r.case,
    value: `${round(r.value)} ${r.unit}`,
    anchor: r.anchor ?? '—',
    anchor_value: r.anchor_value === undefined ? '—' : `${round(r.anchor_value)} ${r.unit}`,
    // How many times better than the anchor (above 1: Steward wins; a floor stays below 1).
    'vs anchor': r.anchor_value === undefined || r.value === 0 || r.anchor_value === 0 ? '—' : `${round(r.better === 'lower' ? r.anchor_value / r.value : r.value / r.anchor_value)}×`,
  }));
  console.table(table);
  for (const r of valid) if (r.note) console.log(`${r.metric} ${r.case}: ${r.note}`);
  writeFileSync(file, `${JSON.stringify(valid, null, 2)}\n`);
  console.log(`wrote ${file} (${valid.length} rows)`);
}
