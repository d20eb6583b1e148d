import type { PageSnapshot, SnapshotElement, SnapshotText } from '../../protocol/snapshot.ts';
import { word } from './page-words.ts';

/** Elements and texts merged back into document order, and grouped by container row (pure). */

export type Item = { kind: 'element'; el: SnapshotElement } | { kind: 'text'; text: SnapshotText };

function itemOrder(i: Item): number {
  return (i.kind === 'element' ? i.el.order : i.text.order) ?? Number.MAX_SAFE_INTEGER;
}

function itemContainer(i: Item) {
  return i.kind === 'element' ? i.el.container : i.text.container;
}

/** Document order when the snapshot carries it; elements first, then texts, otherwise. */
export function orderedItems(s: PageSnapshot): Item[] {
  const items: Item[] = [...s.elements.map((el) => ({ kind: 'element', el }) as Item), ...s.texts.map((text) => ({ kind: 'text', text }) as Item)];
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => itemOrder(a.item) - itemOrder(b.item) || a.index - b.index)
    .map((x) => x.item);
}

export interface ContainerGroup {
  ref: string;
  /** Row number → its items in order (0 = header row). */
  rows: Map<number, Item[]>;
}

export type Block = { kind: 'item'; item: Item } | { kind: 'container'; group: ContainerGroup };

/** Items outside containers stay in place; a container's items gather where its first item is. */
export function blocks(items: Item[]): Block[] {
  const out: Block[] = [];
  const groups = new Map<string, ContainerGroup>();
  for (const item of items) {
    const c = itemContainer(item);
    if (!c) {
      out.push({ kind: 'item', item });
      continue;
    }
    let g = groups.get(c.ref);
    if (!g) {
      g = { ref: c.ref, rows: new Map() };
      groups.set(c.ref, g);
      out.push({ kind: 'container', group: g });
    }
    const row = g.rows.get(c.row);
    if (row) row.push(item);
    else g.rows.set(c.row, [item]);
  }
  for (const g of groups.values()) g.rows = new Map([...g.rows].sort((a, b) => a[0] - b[0]));
  return out;
}

/** A name with its numbers masked: rows that differ only by ids look the same. */
export function nameShape(name: string): string {
  return name.replace(/\d+/g, '#');
}

/** The shape of a row: the roles and name shapes of its elements. */
export function rowShape(items: Item[]): string {
  return items
    .filter((i): i is Extract<Item, { kind: 'element' }> => i.kind === 'element')
    .map((i) => `${word(i.el.role, 40)} ${JSON.stringify(nameShape(i.el.name))}`)
    .join(', ');
}
