import { describe, expect, it } from 'vitest';
import { cleanText } from '../../../src/observation/clean-text.ts';
import { containerRole, firstRole, focusableTabIndex, INTERACTIVE_ROLES, isEditingHostValue, isInteractive, textBlockKind } from '../../../src/observation/dom/classify.ts';

const attrs = (a: Record<string, string>) => (name: string) => (name in a ? a[name]! : null);

describe('isInteractive', () => {
  it('counts native controls, links with an href and the summary of a details', () => {
    for (const tag of ['button', 'select', 'textarea']) expect(isInteractive(tag, attrs({}))).toBe(true);
    expect(isInteractive('input', attrs({ type: 'text' }))).toBe(true);
    expect(isInteractive('input', attrs({}))).toBe(true);
    expect(isInteractive('input', attrs({ type: ' HIDDEN ' }))).toBe(false);
    expect(isInteractive('a', attrs({ href: '/x' }))).toBe(true);
    expect(isInteractive('a', attrs({}))).toBe(false);
    expect(isInteractive('area', attrs({ href: '' }))).toBe(true);
    expect(isInteractive('summary', attrs({}), 'details')).toBe(true);
    expect(isInteractive('summary', attrs({}), 'div')).toBe(false);
  });

  it('counts interactive ARIA roles (first known token of a fallback list), tabindex ≥ 0, editing hosts and inline click handlers', () => {
    expect(isInteractive('div', attrs({ role: 'button' }))).toBe(true);
    expect(isInteractive('div', attrs({ role: 'fancy switch' }))).toBe(true);
    expect(isInteractive('div', attrs({ role: 'presentation' }))).toBe(false);
    expect(isInteractive('div', attrs({ tabindex: '0' }))).toBe(true);
    expect(isInteractive('div', attrs({ tabindex: '-1' }))).toBe(false);
    expect(isInteractive('div', attrs({ contenteditable: '' }))).toBe(true);
    expect(isInteractive('div', attrs({ contenteditable: 'false' }))).toBe(false);
    expect(isInteractive('div', attrs({ onclick: 'go()' }))).toBe(true);
    expect(isInteractive('span', attrs({ class: 'x' }))).toBe(false);
  });

  it('skips attribute checks for elements known to carry none of the special attributes', () => {
    // A div with role=button but flagged as not special is trusted to have no role: the caller found none.
    expect(isInteractive('div', attrs({ role: 'button' }), undefined, false)).toBe(false);
    expect(isInteractive('button', attrs({}), undefined, false)).toBe(true);
  });
});

describe('attribute values', () => {
  it('reads tabindex and contenteditable like the browser', () => {
    expect(focusableTabIndex('0')).toBe(true);
    expect(focusableTabIndex(' 3 ')).toBe(true);
    expect(focusableTabIndex('-1')).toBe(false);
    expect(focusableTabIndex('abc')).toBe(false);
    expect(focusableTabIndex(null)).toBe(false);
    expect(isEditingHostValue('plaintext-only')).toBe(true);
    expect(isEditingHostValue('TRUE')).toBe(true);
    expect(isEditingHostValue('inherit')).toBe(false);
    expect(firstRole('none button', INTERACTIVE_ROLES)).toBe('button');
    expect(firstRole('region', INTERACTIVE_ROLES)).toBeUndefined();
  });
});

describe('textBlockKind', () => {
  it('names headings with their level, live regions, cells and paragraphs', () => {
    expect(textBlockKind('h3', attrs({}))).toEqual({ role: 'heading', level: 3 });
    expect(textBlockKind('div', attrs({ role: 'heading', 'aria-level': '4' }))).toEqual({ role: 'heading', level: 4 });
    expect(textBlockKind('div', attrs({ role: 'heading', 'aria-level': '99' }))).toEqual({ role: 'heading', level: 2 });
    expect(textBlockKind('div', attrs({ role: 'alert' }))).toEqual({ role: 'alert' });
    expect(textBlockKind('p', attrs({ 'aria-live': 'polite' }))).toEqual({ role: 'status' });
    expect(textBlockKind('div', attrs({ 'aria-live': 'off' }))).toBeUndefined();
    expect(textBlockKind('td', attrs({}))).toEqual({ role: 'cell' });
    expect(textBlockKind('th', attrs({ scope: 'row' }))).toEqual({ role: 'rowheader' });
    expect(textBlockKind('th', attrs({}))).toEqual({ role: 'columnheader' });
    expect(textBlockKind('p', attrs({}))).toEqual({ role: 'paragraph' });
    expect(textBlockKind('dd', attrs({}))).toEqual({ role: 'definition' });
    expect(textBlockKind('span', attrs({}))).toBeUndefined();
    expect(textBlockKind('div', attrs({ role: 'status' }), false)).toBeUndefined();
  });

  it("knows no block in tag names that happen to be Object's own properties", () => {
    for (const tag of ['constructor', 'tostring', '__proto__', 'hasownproperty', 'valueof']) expect(textBlockKind(tag, attrs({}))).toBeUndefined();
    expect(textBlockKind('constructor', attrs({ role: 'heading' }))).toEqual({ role: 'heading', level: 2 });
  });
});

describe('cleanText and containerRole', () => {
  it('collapses whitespace and bounds text with an ellipsis, without reading past a bounded head', () => {
    expect(cleanText('  a \n\t b  ', 10)).toBe('a b');
    expect(cleanText('abcdefghij', 5)).toBe('abcd…');
    const huge = `${'word '.repeat(1_000_000)}end`;
    const cut = cleanText(huge, 20);
    expect(cut).toHaveLength(20);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('names containers from their role attribute or tag', () => {
    expect(containerRole('table', null)).toBe('table');
    expect(containerRole('ul', null)).toBe('list');
    expect(containerRole('div', 'listbox')).toBe('listbox');
  });
});
