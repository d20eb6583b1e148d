import { describe, expect, it } from 'vitest';
import { colourFamily, nameMatch, withoutIcons } from '../../../sites/model/widget-agent/names.ts';
import { findTarget, holds, type View, type ViewNode } from '../../../sites/model/widget-agent/view.ts';

/** The matching rules both views share: names compared one way, roles a preference, misses named. */

let at = 0;
const n = (role: string, name: string, extra: Partial<ViewNode> = {}): ViewNode => ({ index: at++, role, name, states: [], control: role !== 'text' && role !== 'heading', ...extra });
const view = (...nodes: ViewNode[]): View => ({ nodes: nodes.map((x, index) => ({ ...x, index })), blindSpots: [] });

describe('names', () => {
  it('are the same whatever the case, spacing and icons; a name within a longer text counts as whole words', () => {
    expect(nameMatch('Reports', '▸ Reports')).toBe(2);
    expect(nameMatch('q3-summary.pdf', '📄 q3-summary.pdf')).toBe(2);
    expect(nameMatch('Downloads', 'Features ▸ Warranty ▸ Downloads ▸')).toBe(1);
    expect(nameMatch('Return', 'Returns')).toBe(0);
    expect(nameMatch('Large', 'Extra large')).toBe(1);
    expect(nameMatch('€70', 'Maximum price per night: €70')).toBe(1);
  });

  it('made of symbols only are found as those symbols', () => {
    expect(nameMatch('+', '+')).toBe(2);
    expect(nameMatch('⠿', '⠿ Bananas')).toBe(1);
    expect(nameMatch('+', '−')).toBe(0);
    expect(withoutIcons('▸ Documents')).toBe('Documents');
    expect(withoutIcons('⠿')).toBe('⠿');
  });

  it('of colours go by family, as a person says them', () => {
    expect(['red', 'firebrick', 'crimson', 'darkred', 'indianred'].map(colourFamily)).toEqual(['red', 'red', 'red', 'red', 'red']);
    expect(['royalblue', 'navy', 'dodgerblue'].map(colourFamily)).toEqual(['blue', 'blue', 'blue']);
    expect(colourFamily('lightslategray')).toBe('grey');
    expect(colourFamily('mediumvioletred')).toBe('red');
  });
});

describe('finding a target', () => {
  it('prefers a control to a text, the same name to a longer one, a visible one to a hidden one, then the role asked for', () => {
    const v = view(n('text', 'Returns'), n('button', 'Returns policy'), n('link', 'Returns'), n('tab', 'Returns'), n('menuitem', 'Duplicate', { unusable: 'hidden' }), n('menuitem', 'Duplicate'));
    expect(findTarget(v, { name: 'Returns', roles: ['tab'], said: '"Returns"' })).toMatchObject({ node: { role: 'tab' } });
    expect(findTarget(v, { name: 'Returns', said: '"Returns"' })).toMatchObject({ node: { role: 'link' } });
    expect(findTarget(v, { name: 'Duplicate', said: '"Duplicate"' })).toMatchObject({ node: { index: 5 } });
  });

  it('finds a field by what it holds, and "the slider" by being the only one', () => {
    const v = view(n('text', 'Notes'), n('textbox', '', { value: 'Buy oat milk' }), n('generic', ''), n('slider', '', { value: '40' }));
    expect(findTarget(v, { name: 'Buy oat milk', roles: ['textbox'], said: 'the note' })).toMatchObject({ node: { index: 1 } });
    expect(findTarget(v, { roles: ['slider'], only: true, said: 'the slider' })).toMatchObject({ node: { index: 3 } });
    expect(findTarget(view(n('generic', '')), { roles: ['slider'], only: true, said: 'the slider' })).toEqual({ miss: 'no slider in the view (the slider)' });
  });

  it('takes the icon nearest the text it is beside', () => {
    const v = view(n('text', 'Invoice 1041'), n('button', ''), n('text', 'Invoice 1042'), n('text', '€120.00'), n('button', ''), n('text', 'Invoice 1043'), n('button', ''));
    expect(findTarget(v, { unnamed: true, roles: ['button'], near: 'Invoice 1042', said: 'the icon' })).toMatchObject({ node: { index: 4 }, scope: { index: 2 } });
    expect(findTarget(v, { unnamed: true, roles: ['button'], near: 'Invoice 9', said: 'the icon' })).toEqual({ miss: 'nothing in the view says "Invoice 9" (looking for the icon)' });
    // A role is a preference: an icon Steward inferred as something else is still the icon.
    const inferred = view(n('text', 'Invoice 1042'), n('text', '€120.00'), n('generic', '', { inferred: true }), n('button', 'Pay'));
    expect(findTarget(inferred, { unnamed: true, roles: ['button'], near: 'Invoice 1042', said: 'the icon' })).toMatchObject({ node: { index: 2 } });
  });

  it('picks a shape by kind, colour family and size, and lists the shapes when none fits', () => {
    const v = view(
      n('graphics-symbol', '', { shape: { kind: 'circle', fill: 'firebrick', size: 'small' } }),
      n('graphics-symbol', '', { shape: { kind: 'circle', fill: 'firebrick', size: 'large' } }),
    );
    expect(findTarget(v, { shape: { kind: 'circle', color: 'red', size: 'large' }, said: 'the large red circle' })).toMatchObject({ node: { index: 1 } });
    expect(findTarget(v, { shape: { kind: 'square', color: 'blue', size: 'small' }, said: 'the small blue square' })).toEqual({
      miss: 'no small blue square among the shapes the view lists (circle firebrick small; circle firebrick large)',
    });
  });
});

describe('conditions a repeated step waits for', () => {
  const v = view(n('text', 'Maximum price per night: €70'), n('slider', 'Volume', { value: '30' }), n('option', 'Large', { states: ['selected'] }), n('option', 'Extra large'));
  it('read what the view says, a value and a state', () => {
    expect(holds(v, { says: '€70' })).toBe(true);
    expect(holds(v, { says: '€7' })).toBe(false);
    expect(holds(v, { valueIn: { name: 'Volume', said: 'Volume' }, is: '30' })).toBe(true);
    expect(holds(v, { stateOf: { name: 'Large', roles: ['option'], said: 'Large' }, has: 'selected' })).toBe(true);
    expect(holds(v, { stateOf: { name: 'Extra large', said: 'Extra large' }, has: 'selected' })).toBe(false);
  });
});
