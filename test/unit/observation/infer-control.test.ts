import { describe, expect, it } from 'vitest';
import { MARK } from '../../../src/protocol/listener-marks.ts';
import { classWords, inferControl, type ControlFacts } from '../../../src/observation/dom/infer-control.ts';
import { inferableRole } from '../../../src/observation/dom/classify.ts';

/** A plain element with nothing that makes it live; each test adds what it is about. */
const facts = (over: Partial<ControlFacts> = {}): ControlFacts => ({
  tag: 'div',
  listeners: 0,
  inline: 0,
  draggable: false,
  cursor: undefined,
  tabindex: false,
  editable: false,
  hoverStyle: false,
  dropZone: false,
  gripRow: false,
  holdsControls: false,
  ownText: true,
  empty: false,
  longText: false,
  words: [],
  parentWords: [],
  alike: () => 1,
  nestedList: false,
  ...over,
});

describe('inferControl: which elements are controls', () => {
  it('takes nothing for a control without evidence of behaviour, whatever its class says', () => {
    expect(inferControl(facts({ words: ['tab', 'button', 'link'] }))).toBeUndefined();
  });

  it('takes a span with a click listener for a button, and says from what, how sure', () => {
    expect(inferControl(facts({ tag: 'span', listeners: MARK.click }))).toEqual({
      role: 'button',
      inference: { confidence: 0.7, evidence: ['click_listener'] },
      states: [],
      holder: false,
    });
  });

  it('counts each kind of evidence: listeners, inline handlers, draggable, tabindex, cursors and :hover rules', () => {
    const all = inferControl(facts({ listeners: MARK.click | MARK.key | MARK.hover, inline: MARK.click, draggable: true, tabindex: true, cursor: 'pointer', hoverStyle: true }))!;
    expect(all.inference.evidence).toEqual(['click_listener', 'key_listener', 'hover_listener', 'inline_handler', 'draggable', 'tabindex', 'cursor_pointer', 'hover_style']);
    expect(inferControl(facts({ cursor: 'grab' }))!.inference.evidence).toEqual(['cursor_grab']);
  });

  it('takes an empty onclick (React’s stub on every element with an onClick prop) for a click listener only where something else says the element is live', () => {
    // A status chip React gave an onClick prop: no cursor, nothing else.
    expect(inferControl(facts({ listeners: MARK.stub }))).toBeUndefined();
    expect(inferControl(facts({ listeners: MARK.stub, cursor: 'pointer' }))?.inference.evidence).toEqual(['click_listener', 'cursor_pointer']);
    expect(inferControl(facts({ listeners: MARK.stub | MARK.click }))?.inference.evidence).toEqual(['click_listener']);
  });

  it('is less sure of how an element looks than of what the page made it do, and more sure when they agree', () => {
    const cursorAlone = inferControl(facts({ cursor: 'pointer' }))!.inference.confidence;
    const listenerAlone = inferControl(facts({ listeners: MARK.click }))!.inference.confidence;
    const both = inferControl(facts({ listeners: MARK.click, cursor: 'pointer' }))!.inference.confidence;
    expect(cursorAlone).toBeLessThan(listenerAlone);
    expect(listenerAlone).toBeLessThan(both);
    const everything = inferControl(facts({ listeners: MARK.click | MARK.key | MARK.hover | MARK.drag, tabindex: true, cursor: 'pointer', draggable: true }))!.inference;
    expect(new Set(everything.evidence)).toEqual(new Set(['click_listener', 'key_listener', 'hover_listener', 'drag_listener', 'tabindex', 'cursor_pointer', 'draggable']));
    expect(everything.confidence).toBe(0.95);
    // A class word names the role; it is no evidence that the element does anything.
    const named = inferControl(facts({ listeners: MARK.click, words: ['link'] }))!.inference;
    expect(named.evidence).toEqual(['click_listener', 'class_name']);
    expect(named.confidence).toBe(listenerAlone);
  });

  it('leaves out what holds controls (a list whose listener serves its items, a card around a link), long texts, and empty hover frames', () => {
    expect(inferControl(facts({ tag: 'ul', listeners: MARK.click, holdsControls: true, ownText: false }))).toBeUndefined();
    expect(inferControl(facts({ listeners: MARK.click, cursor: 'pointer', longText: true }))).toBeUndefined();
    expect(inferControl(facts({ listeners: MARK.hover, ownText: false, empty: true }))).toBeUndefined();
    // An empty element with a click listener is a control all the same (a colour swatch).
    expect(inferControl(facts({ listeners: MARK.click, ownText: false, empty: true }))?.role).toBe('button');
  });

  it('keeps a hover menu title that holds its menu, and says it holds controls of their own', () => {
    const css = inferControl(facts({ hoverStyle: true, holdsControls: true, ownText: true }))!;
    expect(css).toMatchObject({ role: 'button', holder: true, inference: { evidence: ['hover_style'] } });
    expect(inferControl(facts({ listeners: MARK.hover, holdsControls: true, ownText: true }))?.holder).toBe(true);
    // Without a title of its own it is a container (the menu's list), not an opener.
    expect(inferControl(facts({ listeners: MARK.hover, holdsControls: true, ownText: false }))).toBeUndefined();
  });

  it('takes an element with only drop listeners for a region things are dropped on, even holding its cards', () => {
    expect(inferControl(facts({ listeners: MARK.drop, holdsControls: true, longText: true }))).toEqual({
      role: 'region',
      inference: { confidence: 0.6, evidence: ['drop_listener'] },
      states: [],
      holder: true,
    });
    // A drag-and-drop library's drop-zone class (jQuery UI's droppable bin): the same, from its class.
    expect(inferControl(facts({ dropZone: true }))).toEqual({ role: 'region', inference: { confidence: 0.5, evidence: ['drop_class'] }, states: [], holder: true });
    // Draggable as well: a card, not a drop target.
    expect(inferControl(facts({ dropZone: true, cursor: 'grab' }))?.role).toBe('button');
    // The row of a list sorted by its grips: it holds its grip and is where another row drops.
    expect(inferControl(facts({ gripRow: true, holdsControls: true, ownText: false }))).toEqual({
      role: 'region',
      inference: { confidence: 0.5, evidence: ['grip_inside'] },
      states: [],
      holder: true,
    });
    expect(inferControl(facts({ listeners: MARK.drop | MARK.drag, draggable: true }))?.role).toBe('button');
  });

  it('takes an editing host for a text box, whatever it holds', () => {
    expect(inferControl(facts({ editable: true, holdsControls: true, longText: true }))).toMatchObject({ role: 'textbox', inference: { evidence: ['contenteditable'] }, holder: false });
  });
});

describe('inferControl: the role its class names, backed by structure', () => {
  const live = { listeners: MARK.click, cursor: 'pointer' as const };

  it('tabs come in groups, and the active one is selected', () => {
    expect(inferControl(facts({ ...live, words: ['tab'], alike: () => 3 }))?.role).toBe('tab');
    expect(inferControl(facts({ ...live, words: ['tab', 'on'], alike: () => 3 }))).toMatchObject({
      role: 'tab',
      states: ['selected'],
      inference: { evidence: ['click_listener', 'cursor_pointer', 'class_name'] },
    });
    // A lone "tab" is not a tab list's tab.
    expect(inferControl(facts({ ...live, words: ['tab'], alike: () => 1 }))?.role).toBe('button');
    // Words are whole words: a table is no tab.
    expect(inferControl(facts({ ...live, words: ['table'], alike: () => 3 }))?.role).toBe('button');
  });

  it('tree nodes sit in nested lists', () => {
    expect(inferControl(facts({ ...live, words: ['node'], nestedList: true }))?.role).toBe('treeitem');
    expect(inferControl(facts({ ...live, words: ['node'], nestedList: false }))?.role).toBe('button');
  });

  it('a slider handle is focusable', () => {
    expect(inferControl(facts({ listeners: MARK.key, tabindex: true, words: ['ui', 'slider', 'handle'] }))?.role).toBe('slider');
    expect(inferControl(facts({ listeners: MARK.click, words: ['ui', 'slider', 'handle'] }))?.role).toBe('button');
  });

  it('menu items and options come in groups; the items of a suggestion list are options', () => {
    expect(inferControl(facts({ ...live, words: ['menu', 'item'], alike: (w) => (w === 'item' ? 4 : 0) }))?.role).toBe('menuitem');
    expect(inferControl(facts({ ...live, words: ['ui', 'menu', 'item'], parentWords: ['ui', 'autocomplete'], alike: () => 5 }))?.role).toBe('option');
    expect(inferControl(facts({ ...live, words: ['suggestion'], alike: () => 2 }))?.role).toBe('option');
    expect(inferControl(facts({ ...live, words: ['option'], alike: () => 1 }))?.role).toBe('button');
  });

  it('a link by its class', () => {
    expect(inferControl(facts({ ...live, tag: 'span', words: ['link'] }))?.role).toBe('link');
  });
});

describe('classWords', () => {
  it('splits class and id into lower-case words, camelCase too', () => {
    expect(classWords('ui-slider-handle ui-corner-all', 'priceSlider')).toEqual(['ui', 'slider', 'handle', 'ui', 'corner', 'all', 'price', 'slider']);
    expect(classWords(null, null)).toEqual([]);
  });

  it('is bounded: a page may write anything in a class', () => {
    expect(classWords('a '.repeat(10_000), null).length).toBeLessThanOrEqual(40);
  });
});

describe('inferableRole', () => {
  it('lets elements without a role or with a document role be inferred, never parts of composite widgets or landmarks', () => {
    for (const role of [null, '', 'presentation', 'none', 'listitem', 'row', 'img', 'heading']) expect(inferableRole(role), String(role)).toBe(true);
    for (const role of ['menu', 'listbox', 'tablist', 'dialog', 'navigation', 'region', 'tree', 'grid']) expect(inferableRole(role), role).toBe(false);
  });
});
