import { describe, expect, it } from 'vitest';
import { cursorKind, cursorSubject, hoverReveal, inlineCursor, splitSelectorList } from '../../../src/observation/dom/css-selectors.ts';

describe('splitSelectorList', () => {
  it('splits at top-level commas only', () => {
    expect(splitSelectorList('.a, .b:is(.c, .d) > e ,[data-x="1,2"], f')).toEqual(['.a', '.b:is(.c, .d) > e', '[data-x="1,2"]', 'f']);
    expect(splitSelectorList('  ')).toEqual([]);
  });
});

describe('cursorSubject: which elements a cursor rule is about', () => {
  it('keeps the rule selector, without the pointer and focus pseudo-classes and pseudo-elements', () => {
    expect(cursorSubject('.link')).toBe('.link');
    expect(cursorSubject('.row:hover')).toBe('.row');
    expect(cursorSubject('.nav .item:focus-visible::after')).toBe('.nav .item');
    expect(cursorSubject('#board [data-i]')).toBe('#board [data-i]');
    expect(cursorSubject('svg circle.hit:hover')).toBe('svg circle.hit');
  });

  it('drops subjects that are controls, labels, options or anything already, and what stripping would change', () => {
    for (const s of [
      'button',
      'a',
      '.toolbar > button:hover',
      'input[type=checkbox]',
      'label',
      'select option',
      'summary',
      '[role=button]',
      'a[href]',
      '.x [href]',
      '*',
      'html',
      'body',
      ':root',
      '.x :not(.y)',
    ]) {
      expect(cursorSubject(s), s).toBeUndefined();
    }
    // `:hover` standing alone as a compound (any hovered descendant) or inside :not() cannot be stripped.
    expect(cursorSubject('.list :hover')).toBeUndefined();
    expect(cursorSubject('.item:not(:hover)')).toBeUndefined();
  });
});

describe('hoverReveal: :hover rules that open something inside the hovered element', () => {
  it('gives the hovered element and where what it shows is, relative to it', () => {
    expect(hoverReveal('.css-hover:hover .sub')).toEqual({ target: '.css-hover', shown: ':scope .sub' });
    expect(hoverReveal('nav li:hover > ul')).toEqual({ target: 'nav li', shown: ':scope > ul' });
    expect(hoverReveal('.menu:hover .sub:focus-within a')).toEqual({ target: '.menu', shown: ':scope .sub a' });
  });

  it('ignores rules that restyle the hovered element itself, its siblings, or everything', () => {
    expect(hoverReveal('.mrow:hover')).toBeUndefined();
    expect(hoverReveal('.sub a:hover')).toBeUndefined();
    expect(hoverReveal('.tip:hover + .bubble')).toBeUndefined();
    expect(hoverReveal('.tip:hover ~ .bubble')).toBeUndefined();
    expect(hoverReveal('body:hover .x')).toBeUndefined();
    expect(hoverReveal('.a:not(:hover) .b')).toBeUndefined();
    expect(hoverReveal('.plain .b')).toBeUndefined();
  });
});

describe('cursors', () => {
  it('reads what a cursor value says: a click, a drag, or nothing', () => {
    expect(cursorKind('pointer')).toBe('pointer');
    expect(cursorKind('url(hand.cur), pointer')).toBe('pointer');
    expect(cursorKind(' GRAB ')).toBe('grab');
    expect(cursorKind('move')).toBe('grab');
    expect(cursorKind('grabbing')).toBe('grab');
    expect(cursorKind('default')).toBeUndefined();
    expect(cursorKind('')).toBeUndefined();
  });

  it('reads an inline style: a cursor that says neither overrides any rule', () => {
    expect(inlineCursor('color: red; cursor: pointer')).toBe('pointer');
    expect(inlineCursor('cursor:grab')).toBe('grab');
    expect(inlineCursor('cursor: default')).toBe('other');
    expect(inlineCursor('color: red')).toBeUndefined();
    expect(inlineCursor(null)).toBeUndefined();
  });
});
