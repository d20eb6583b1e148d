import { describe, expect, it } from 'vitest';
import { applyTexts, encodeTexts } from '../../../src/observation/text-pieces.ts';
import type { SnapshotText } from '../../../src/protocol/snapshot.ts';

const cells = (n: number, from = 0): SnapshotText[] => Array.from({ length: n }, (_, i) => ({ text: `Cell ${i}`, role: 'cell', order: from + i, container: { ref: 't1', row: i + 1 } }));

/** Encodes, then applies: what the service worker rebuilds. */
const roundTrip = (now: SnapshotText[], before: SnapshotText[]) => applyTexts(before, JSON.parse(JSON.stringify(encodeTexts(now, before).pieces)), 5_000);

describe('encodeTexts / applyTexts', () => {
  it('says nothing changed when words and orders are the same', () => {
    expect(encodeTexts(cells(5), cells(5))).toEqual({ pieces: [[0, 5, 0]], literals: 0, unchanged: true });
  });

  it('sends a notice inserted above as one text and every later text as one shifted run', () => {
    const before = cells(1000, 10);
    const now = [{ text: 'Notice', role: 'paragraph', order: 10 }, ...cells(1000, 11)];
    const told = encodeTexts(now, before);
    expect(told).toEqual({ pieces: [{ text: 'Notice', role: 'paragraph', order: 10 }, [0, 1000, 1]], literals: 1, unchanged: false });
    expect(roundTrip(now, before)).toEqual(now);
    // And the notice going away again.
    expect(encodeTexts(before, now).pieces).toEqual([[1, 1000, -1]]);
    expect(roundTrip(before, now)).toEqual(before);
  });

  it('keeps runs around texts changed in place, and orders moved by elements in between', () => {
    const before = cells(6);
    const now = cells(6).map((t, i) => (i === 2 ? { ...t, text: 'Changed' } : i >= 4 ? { ...t, order: t.order! + 2 } : t));
    expect(encodeTexts(now, before).pieces).toEqual([[0, 2, 0], now[2], [3, 1, 0], [4, 2, 2]]);
    expect(roundTrip(now, before)).toEqual(now);
  });

  it('sends the texts of a replaced middle of another length as they are', () => {
    const before = cells(6);
    const now = [
      ...cells(2),
      { text: 'New A', order: 2 },
      { text: 'New B', order: 3 },
      { text: 'New C', order: 4 },
      ...cells(6)
        .slice(4)
        .map((t) => ({ ...t, order: t.order! + 1 })),
    ];
    const told = encodeTexts(now, before);
    expect(told.literals).toBe(3);
    expect(told.pieces[0]).toEqual([0, 2, 0]);
    expect(told.pieces.at(-1)).toEqual([4, 2, 1]);
    expect(roundTrip(now, before)).toEqual(now);
  });

  it('steps over texts inserted or removed in the middle, and a list cut at its limit', () => {
    const before = cells(100);
    const inserted = [
      ...cells(50),
      { text: 'Inserted', order: 50 },
      ...cells(100)
        .slice(50)
        .map((t) => ({ ...t, order: t.order! + 1 })),
    ];
    expect(encodeTexts(inserted, before).pieces).toEqual([[0, 50, 0], { text: 'Inserted', order: 50 }, [50, 50, 1]]);
    const removed = [...cells(40), ...cells(100).slice(43)];
    expect(encodeTexts(removed, before).pieces).toEqual([
      [0, 40, 0],
      [43, 57, 0],
    ]);
    expect(roundTrip(removed, before)).toEqual(removed);
    // A snapshot capped at 100 texts: one more at the top pushes the last one out.
    const capped = [{ text: 'Notice', order: 0 }, ...cells(99, 1)];
    expect(encodeTexts(capped, before)).toMatchObject({ pieces: [{ text: 'Notice', order: 0 }, [0, 99, 1]], literals: 1 });
    expect(roundTrip(capped, before)).toEqual(capped);
  });

  it('gives up once more texts than allowed would travel in full', () => {
    const before = cells(20);
    const now = cells(20).map((t) => ({ ...t, text: `Other ${t.text}` }));
    const told = encodeTexts(now, before, 5);
    expect(told.literals).toBe(20);
    expect(applyTexts(before, told.pieces, 5_000)).toEqual(now);
  });

  it('counts a text whose row moved as changed (the words are the same, their place is not)', () => {
    const before = cells(3);
    const now = cells(3).map((t) => ({ ...t, container: { ref: 't1', row: t.container!.row + 1 } }));
    expect(encodeTexts(now, before).literals).toBe(3);
  });

  it('refuses runs past the base, shifts below order zero, and more texts than a snapshot may hold', () => {
    expect(applyTexts(cells(3), [[1, 3, 0]], 100)).toBeUndefined();
    expect(applyTexts(cells(3), [[0, 1, -1]], 100)).toBeUndefined();
    expect(
      applyTexts(
        cells(3),
        [
          [2, 1, 0],
          [0, 1, 5],
        ],
        100,
      ),
    ).toEqual([cells(3)[2], { ...cells(3)[0], order: 5 }]);
    // The same run over and over would multiply the base: refused at the limit.
    const repeated = Array.from({ length: 40 }, () => [0, 3, 0] as [number, number, number]);
    expect(applyTexts(cells(3), repeated, 100)).toBeUndefined();
    expect(applyTexts(cells(3), repeated.slice(0, 33), 100)).toHaveLength(99);
  });
});
