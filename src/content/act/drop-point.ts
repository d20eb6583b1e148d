import type { DropAt } from '../../protocol/action.ts';

/**
 * Where on a drop target a drag is released. A sortable list moves an item above another when the
 * pointer ends in that item's upper part (jQuery UI, SortableJS and hand-made lists compare the
 * pointer with the item's middle), so `before` releases a quarter of the way down (at most 12 px
 * from the top edge, never on it), `after` as far up from the bottom, `center` at the middle. Pure.
 */
export function dropPoint(box: { left: number; top: number; width: number; height: number }, at: DropAt = 'center'): { x: number; y: number } {
  const x = box.left + box.width / 2;
  const inset = Math.max(1, Math.min(box.height / 4, 12));
  if (at === 'before') return { x, y: box.top + inset };
  if (at === 'after') return { x, y: box.top + box.height - inset };
  return { x, y: box.top + box.height / 2 };
}
