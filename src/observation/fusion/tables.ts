import type { PageSnapshot, SnapshotTable } from '../../protocol/snapshot.ts';

/**
 * Data tables for fusion: the snapshot's `tables` when the capture fills them, otherwise rebuilt
 * from its containers (tables/grids with column headers) and the texts that point into their
 * rows. A row is kept only when it has exactly one text per column, so cells are never shifted
 * into the wrong column; a table with a skipped row counts as incomplete.
 */
export function tablesOf(snapshot: PageSnapshot): SnapshotTable[] {
  if (snapshot.tables) return snapshot.tables;
  const tables: SnapshotTable[] = [];
  for (const container of snapshot.containers ?? []) {
    if ((container.role !== 'table' && container.role !== 'grid') || !container.columns?.length) continue;
    const rows = new Map<number, string[]>();
    for (const t of snapshot.texts) {
      if (t.container?.ref !== container.ref || t.container.row < 1) continue;
      const cells = rows.get(t.container.row);
      if (cells) cells.push(t.text);
      else rows.set(t.container.row, [t.text]);
    }
    const complete = [...rows.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, cells]) => cells)
      .filter((cells) => cells.length === container.columns!.length);
    tables.push({
      ref: container.ref,
      ...(container.name ? { caption: container.name } : {}),
      headers: container.columns,
      rows: complete.slice(0, 500),
      rowCount: Math.max(rows.size, complete.length),
    });
    if (tables.length >= 20) break;
  }
  return tables;
}
