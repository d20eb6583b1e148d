import { describe, expect, it } from 'vitest';
import { isInteractive, NAMING_ATTRIBUTES_SELECTOR, ROW_SELECTOR, STRUCTURAL_ATTRIBUTES_SELECTOR, textBlockKind } from '../../../src/observation/dom/classify.ts';

/**
 * Guards for the walker's shortcuts (they are only right while these selectors keep their shape):
 * the walk-wide query uses STRUCTURAL_ATTRIBUTES_SELECTOR, so everything isInteractive and
 * textBlockKind read behind `special` must be in it; rowOf skips `matches` for elements without
 * a role attribute, so ROW_SELECTOR may only hold `tr`, `li`, `dialog` (the tags it checks by name) and [role=…] selectors.
 */

const names = (selector: string) => selector.split(',').map((s) => s.trim().replace(/^\[|\]$/g, ''));

describe('walker fast paths', () => {
  it('the structural and the naming attributes do not overlap', () => {
    expect(names(STRUCTURAL_ATTRIBUTES_SELECTOR).filter((n) => names(NAMING_ATTRIBUTES_SELECTOR).includes(n))).toEqual([]);
  });

  it('isInteractive and textBlockKind read only structural attributes behind `special`', () => {
    const structural = new Set(names(STRUCTURAL_ATTRIBUTES_SELECTOR));
    const readWith = (special: boolean) => {
      const read = new Set<string>();
      // Every attribute present with a value that keeps the checks going as far as they go.
      const attr = (name: string) => {
        read.add(name);
        return name === 'role' ? 'heading' : name === 'aria-level' ? '2' : 'x';
      };
      for (const tag of ['div', 'span', 'a', 'area', 'input', 'summary', 'th', 'td', 'p', 'h1', 'custom-el']) {
        isInteractive(tag, attr, 'details', special);
        isInteractive(tag, (n) => (n === 'role' ? 'none' : n === 'tabindex' ? '-1' : n === 'contenteditable' ? 'false' : (read.add(n), null)), undefined, special);
        textBlockKind(tag, attr, special);
        textBlockKind(tag, (n) => (n === 'role' ? null : n === 'aria-live' ? 'polite' : (read.add(n), null)), special);
      }
      return read;
    };
    const always = readWith(false);
    for (const name of readWith(true)) expect(always.has(name) || structural.has(name) || name === 'aria-level').toBe(true);
  });

  it('ROW_SELECTOR is tr, li, dialog or role selectors only', () => {
    for (const part of ROW_SELECTOR.split(',')) expect(part === 'tr' || part === 'li' || part === 'dialog' || /^\[role=[a-z]+\]$/.test(part)).toBe(true);
  });
});
