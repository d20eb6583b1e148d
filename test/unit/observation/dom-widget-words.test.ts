import { describe, expect, it } from 'vitest';
import { colourName } from '../../../src/observation/dom/colour-names.ts';
import { coverWord, isDismissLabel } from '../../../src/observation/dom/cover-words.ts';
import { PopupOpeners } from '../../../src/observation/dom/openers.ts';
import { rangeBounds } from '../../../src/observation/dom/range-bounds.ts';
import { boxKind, sizeClasses, tagKind } from '../../../src/observation/dom/shape-kinds.ts';

/** The documented limit of the module under test, written out so a change to it fails here. */
const OPEN_WINDOW_MS = 3_000;

/** The pure parts of issue 26's page-side capture: colours, shapes, covers, ranges, openers. */

describe('colour names', () => {
  it('names the colours a person would, from computed styles and hex', () => {
    // The lab's shape colours, as getComputedStyle reports them.
    expect(colourName('rgb(211, 47, 47)')).toBe('red');
    expect(colourName('rgb(30, 99, 214)')).toBe('blue');
    expect(colourName('rgb(46, 139, 61)')).toBe('green');
    expect(colourName('rgb(242, 194, 0)')).toBe('yellow');
    expect(colourName('#ff8c00')).toBe('orange');
    expect(colourName('#000')).toBe('black');
    expect(colourName('rgb(255, 255, 255)')).toBe('white');
    expect(colourName('rgb(128, 128, 128)')).toBe('gray');
    expect(colourName('#000080')).toBe('navy');
    expect(colourName('#8b4513')).toBe('brown');
    expect(colourName('#800080')).toBe('purple');
    expect(colourName('#ffc0cb')).toBe('pink');
    expect(colourName('#e91e63')).toBe('pink');
    expect(colourName('#008080')).toBe('teal');
    expect(colourName('rgb(91, 107, 127)')).toBe('gray');
  });

  it('says nothing of what paints nothing', () => {
    expect(colourName('none')).toBeUndefined();
    expect(colourName('rgba(0, 0, 0, 0)')).toBeUndefined();
    expect(colourName('rgb(255 0 0 / 5%)')).toBeUndefined();
    expect(colourName('url("#gradient") none')).toBeUndefined();
    expect(colourName(undefined)).toBeUndefined();
    // Half transparent still paints: named by its colour.
    expect(colourName('rgba(211, 47, 47, 0.5)')).toBe('red');
  });
});

describe('shape kinds and sizes', () => {
  it('tells a triangle by its three points, a square rect and a round ellipse by their boxes', () => {
    expect(tagKind('polygon', '55,15 95,95 15,95')).toBe('triangle');
    expect(tagKind('polygon', '0,0 10,0 5,8 0,0')).toBe('triangle');
    expect(tagKind('polygon', '0 0 10 0 10 10 0 10')).toBe('polygon');
    expect(tagKind('circle', null)).toBe('circle');
    expect(tagKind('path', null)).toBe('path');
    // Junk in the points: no points counted, so no triangle.
    expect(tagKind('polygon', '1,2 junk')).toBe('polygon');
    expect(tagKind('polygon', '55,15 95,95 15,95 junk')).toBe('polygon');
    expect(boxKind('rect', 32, 32)).toBe('square');
    expect(boxKind('rect', 200, 120)).toBe('rect');
    expect(boxKind('ellipse', 40, 41)).toBe('circle');
    expect(boxKind('ellipse', 80, 40)).toBe('ellipse');
    expect(boxKind('triangle', 80, 80)).toBe('triangle');
  });

  it('sizes shapes against the others of their drawing, and none when all are alike', () => {
    // The lab's shapes: radius 40 against 16.
    expect(sizeClasses([6400, 1024, 6400, 1024])).toEqual(['large', 'small', 'large', 'small']);
    // The floor plan: a meeting room, a phone booth, a desk, a lounge.
    expect(sizeClasses([24_000, 1600, 1296, 12_100])).toEqual(['large', 'small', 'small', 'large']);
    expect(sizeClasses([10_000, 1000, 100])).toEqual(['large', 'medium', 'small']);
    expect(sizeClasses([1000, 1200, 900])).toEqual([undefined, undefined, undefined]);
    expect(sizeClasses([undefined, 6400, 1024])).toEqual([undefined, 'large', 'small']);
  });
});

describe('cover words', () => {
  it('recognises the controls that dismiss a banner or a dialog', () => {
    for (const label of ['Close', 'close dialog', 'Dismiss', 'Accept all cookies', 'OK', 'Got it!', 'No thanks', '✕', '×', 'Reject all']) expect(isDismissLabel(label), label).toBe(true);
    for (const label of ['Publish', 'Settings', 'Closet organisers', 'Learn more', '']) expect(isDismissLabel(label), label).toBe(false);
  });

  it('calls a cover without a telling role by where it sits', () => {
    expect(coverWord('sticky', 'top')).toBe('header');
    expect(coverWord('sticky', 'bottom')).toBe('footer');
    expect(coverWord('fixed', 'top')).toBe('header');
    expect(coverWord('fixed', 'bottom')).toBe('overlay');
    expect(coverWord('absolute', undefined)).toBe('overlay');
    expect(coverWord('static', undefined)).toBe('element');
  });
});

describe('range bounds', () => {
  const attrs =
    (a: Record<string, string>) =>
    (name: string): string | null =>
      a[name] ?? null;

  it('reads a range input, with HTML defaults, and a number input without any', () => {
    expect(rangeBounds(attrs({ step: '5' }), 'input', 'slider', 'range')).toEqual({ min: 0, max: 100, step: 5 });
    expect(rangeBounds(attrs({ min: '-10', max: '10', step: 'any' }), 'input', 'slider', 'range')).toEqual({ min: -10, max: 10 });
    expect(rangeBounds(attrs({ min: '1' }), 'input', 'spinbutton', 'number')).toEqual({ min: 1 });
    expect(rangeBounds(attrs({}), 'input', 'spinbutton', 'number')).toBeUndefined();
    expect(rangeBounds(attrs({ min: '1', max: '9' }), 'input', 'textbox', 'text')).toBeUndefined();
  });

  it('reads aria-valuemin / aria-valuemax of the ARIA range roles only', () => {
    expect(rangeBounds(attrs({ 'aria-valuemin': '0', 'aria-valuemax': '200' }), 'span', 'slider', undefined)).toEqual({ min: 0, max: 200 });
    expect(rangeBounds(attrs({ 'aria-valuemin': '1' }), 'div', 'progressbar', undefined)).toEqual({ min: 1 });
    expect(rangeBounds(attrs({ 'aria-valuemin': '0', 'aria-valuemax': '9' }), 'div', 'button', undefined)).toBeUndefined();
    expect(rangeBounds(attrs({ 'aria-valuemin': 'low' }), 'div', 'slider', undefined)).toBeUndefined();
  });

  it('takes only well-formed numbers', () => {
    /** A number input's `min` as read (a number input has no default bounds). */
    const parseBound = (min: string) => rangeBounds(attrs({ min }), 'input', 'spinbutton', 'number')?.min;
    expect(parseBound(' 2.5 ')).toBe(2.5);
    expect(parseBound('1e3')).toBe(1000);
    expect(parseBound('.5')).toBe(0.5);
    for (const junk of ['', 'Infinity', '0x10', '5px', '1,5', 'NaN']) expect(parseBound(junk), junk).toBeUndefined();
  });
});

describe('popup openers', () => {
  // Elements stand in as plain objects: openers only compares them and asks `contains`.
  const el = (name: string) => ({ name }) as unknown as Element;
  const button = el('button');
  const list = el('list');
  const menu = el('menu');
  const table = el('table');
  const live = new Map([['e1', button]]);
  const contains = (outer: Element, inner: Element) => outer === inner;

  let clock = 0;
  const now = () => clock;

  it('ties what shows first after an act to the control acted on, while it keeps showing', () => {
    const o = new PopupOpeners(now);
    o.update(new Set([table]), (r) => live.get(r), contains);
    o.actedOn('e1');
    // The snapshot right after the keystroke: the list waits for its debounce.
    clock += 50;
    o.update(new Set([table]), (r) => live.get(r), contains);
    clock += 300;
    o.update(new Set([table, list]), (r) => live.get(r), contains);
    expect(o.openedBy(list)).toBe('e1');
    // Shown before the act: not opened by it.
    expect(o.openedBy(table)).toBeUndefined();
    // Still open a snapshot later: still tied; a menu that appears with no act is not.
    o.update(new Set([table, list, menu]), (r) => live.get(r), contains);
    expect(o.openedBy(list)).toBe('e1');
    expect(o.openedBy(menu)).toBeUndefined();
    // Closed, then shown again without an act: no longer tied.
    o.update(new Set([table]), (r) => live.get(r), contains);
    expect(o.openedBy(list)).toBeUndefined();
    o.update(new Set([table, list]), (r) => live.get(r), contains);
    expect(o.openedBy(list)).toBeUndefined();
  });

  it('ties nothing long after the act, to a control that is gone, or to one inside what appeared', () => {
    const o = new PopupOpeners(now);
    o.actedOn('e1');
    clock += OPEN_WINDOW_MS + 1;
    o.update(new Set([table]), (r) => live.get(r), contains);
    expect(o.openedBy(table)).toBeUndefined();
    o.actedOn('e9');
    o.update(new Set([list]), (r) => live.get(r), contains);
    expect(o.openedBy(list)).toBeUndefined();
    o.actedOn('e1');
    o.update(
      new Set([list, menu]),
      (r) => live.get(r),
      (outer, inner) => outer === menu && inner === button,
    );
    expect(o.openedBy(menu)).toBeUndefined();
  });
});
