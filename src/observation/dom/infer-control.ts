import type { ElementState, Inference, InteractivityEvidence } from '../../protocol/element.ts';
import { MARK } from '../../protocol/listener-marks.ts';

/**
 * Whether an element without a control's tag or role is a control anyway, from plain facts the
 * walker read (pure, unit-tested): what the page's behaviour and styling say (listeners, inline
 * handlers, a pointer or grab cursor, tabindex, draggable, a `:hover` rule that opens something
 * inside it), what it holds, and the words of its class and id. Also which role Steward gives it
 * and how sure it is.
 *
 * An editing host is a text box. Not a control: an element holding controls or other candidates (a list whose listener serves
 * its items, a card around a link) — unless it opens something on hover and says what (its own
 * text: a menu title holds its menu) or is a drop target (a column holds its cards); an element
 * with a long text (a card body, an article); anything inside a control.
 */

export interface ControlFacts {
  tag: string;
  /** Listener kinds (MARK bits) from the main world's marks. */
  listeners: number;
  /** Listener kinds of inline `on…` attributes. */
  inline: number;
  draggable: boolean;
  cursor: 'pointer' | 'grab' | undefined;
  /** tabindex ≥ 0 (focusable). */
  tabindex: boolean;
  /** An editing host (contenteditable): a text field, whatever it holds. */
  editable: boolean;
  /** A `:hover` rule shows something inside it. */
  hoverStyle: boolean;
  /** A drag-and-drop library's drop-zone class (classify.ts DROP_ZONE_SELECTOR). */
  dropZone: boolean;
  /** A list item holding a drag grip (a grab cursor): a row of a list sorted by dragging. */
  gripRow: boolean;
  /** It holds native controls, elements with widget roles, or other candidates. */
  holdsControls: boolean;
  /** It has text of its own (a text node child), not only inside its children. */
  ownText: boolean;
  /** It holds nothing: no element, no text. */
  empty: boolean;
  /** Its text (without controls inside) is longer than a control's name would be. */
  longText: boolean;
  /** Lower-case words of its class and id (`ui-slider-handle` → ui, slider, handle). */
  words: readonly string[];
  /** The same of its parent (a suggestion list says `autocomplete`). */
  parentWords: readonly string[];
  /** How many of its siblings (itself included) carry `word` too; a tab, option or menu item comes in groups. */
  alike: (word: string) => number;
  /** It sits in a nested list (an item whose list is inside another item, or that holds a list): a tree. */
  nestedList: boolean;
}

export interface InferredControl {
  role: string;
  inference: Inference;
  /** States its class says (a tab, option or tree item marked active / selected / current). */
  states: ElementState[];
  /**
   * It holds other controls and is one all the same (a drop target holds its cards, a hover menu's
   * title its menu): what it holds are controls of their own and its text stays page text.
   */
  holder: boolean;
}

const LISTENER_EVIDENCE: ReadonlyArray<[number, InteractivityEvidence]> = [
  [MARK.click, 'click_listener'],
  [MARK.key, 'key_listener'],
  [MARK.hover, 'hover_listener'],
  [MARK.drag, 'drag_listener'],
  [MARK.drop, 'drop_listener'],
];

/**
 * How much each kind of evidence says on its own (the confidence scale): a listener for a click,
 * a key or a drag, an inline handler or `draggable` say the page made it live (0.7); tabindex,
 * a hover or drop listener say it reacts to something (0.6); a cursor or a `:hover` rule say only
 * how it looks (0.5). Each further kind of evidence adds 0.1 (a listener and a pointer cursor
 * agreeing: 0.8), up to 0.95: Steward never knows what an inferred control does.
 */
const STRENGTH: Readonly<Record<InteractivityEvidence, number>> = {
  click_listener: 0.7,
  key_listener: 0.7,
  drag_listener: 0.7,
  inline_handler: 0.7,
  draggable: 0.7,
  hover_listener: 0.6,
  drop_listener: 0.6,
  drop_class: 0.5,
  grip_inside: 0.5,
  tabindex: 0.6,
  contenteditable: 0.6,
  cursor_pointer: 0.5,
  cursor_grab: 0.5,
  hover_style: 0.5,
  class_name: 0,
};

function evidenceOf(f: ControlFacts): InteractivityEvidence[] {
  const out: InteractivityEvidence[] = [];
  for (const [bit, evidence] of LISTENER_EVIDENCE) if (f.listeners & bit) out.push(evidence);
  // An empty onclick (React's, on every element with an onClick prop) is a click listener only
  // where something else says the element is live: a status chip gets one too.
  const stub = (f.listeners & MARK.stub) !== 0 && (f.listeners & MARK.click) === 0;
  if (f.inline) out.push('inline_handler');
  if (f.draggable) out.push('draggable');
  if (f.tabindex) out.push('tabindex');
  if (f.editable) out.push('contenteditable');
  if (f.cursor === 'pointer') out.push('cursor_pointer');
  if (f.cursor === 'grab') out.push('cursor_grab');
  if (f.hoverStyle) out.push('hover_style');
  if (f.dropZone) out.push('drop_class');
  if (f.gripRow) out.push('grip_inside');
  if (stub && out.length > 0) out.unshift('click_listener');
  return out;
}

function confidenceOf(evidence: readonly InteractivityEvidence[]): number {
  let best = 0;
  let kinds = 0;
  for (const e of evidence) {
    if (STRENGTH[e] === 0) continue;
    best = Math.max(best, STRENGTH[e]);
    kinds++;
  }
  return Math.round(Math.min(0.95, best + 0.1 * Math.max(0, kinds - 1)) * 100) / 100;
}

const SELECTED_WORDS = new Set(['active', 'selected', 'current', 'on']);
const SUGGESTION_LIST_WORDS = new Set(['autocomplete', 'suggestions', 'suggestion', 'typeahead', 'combobox', 'listbox', 'autosuggest']);

/** A role its class or id names, backed by the structure that role has; undefined for none. */
function roleFromWords(f: ControlFacts): string | undefined {
  const w = new Set(f.words);
  if ((w.has('slider') || w.has('range')) && (w.has('handle') || w.has('thumb') || w.has('knob')) && f.tabindex) return 'slider';
  if (w.has('tab') && f.alike('tab') >= 2) return 'tab';
  if ((w.has('tree') || w.has('treeitem') || w.has('treenode') || w.has('node')) && f.nestedList) return 'treeitem';
  const item = (w.has('menuitem') && f.alike('menuitem') >= 2) || ((w.has('menu') || w.has('dropdown') || w.has('list')) && w.has('item') && f.alike('item') >= 2);
  // The items of a list that suggests what to type are options: choosing one fills the field.
  if (item && f.parentWords.some((x) => SUGGESTION_LIST_WORDS.has(x))) return 'option';
  if (item) return 'menuitem';
  for (const word of ['option', 'suggestion']) if (w.has(word) && f.alike(word) >= 2) return 'option';
  if (w.has('link') && !f.holdsControls) return 'link';
  return undefined;
}

/** Only drop listeners, a drop-zone class or a grip inside a row: a place things are dropped on, not something to click or drag. */
function dropTarget(f: ControlFacts): boolean {
  const all = f.listeners | f.inline;
  return ((all & MARK.drop) !== 0 || f.dropZone || f.gripRow) && (all & ~MARK.drop) === 0 && !f.draggable && !f.cursor && !f.tabindex && !f.hoverStyle;
}

export function inferControl(f: ControlFacts): InferredControl | undefined {
  const evidence = evidenceOf(f);
  if (evidence.length === 0) return undefined;
  if (f.editable) return { role: 'textbox', inference: { confidence: confidenceOf(evidence), evidence }, states: [], holder: false };
  const drop = dropTarget(f);
  const opensOnHover = ((f.listeners | f.inline) & MARK.hover) !== 0 || f.hoverStyle;
  // An empty element that only reacts to the pointer passing (a popup's frame before it is filled) has nothing to offer.
  if (f.empty && evidence.every((e) => e === 'hover_listener' || e === 'hover_style')) return undefined;
  if (f.holdsControls && !drop && !(opensOnHover && f.ownText)) return undefined;
  if (f.longText && !drop) return undefined;
  const named = drop ? undefined : roleFromWords(f);
  const role = drop ? 'region' : (named ?? 'button');
  if (named) evidence.push('class_name');
  const states: ElementState[] = [];
  if ((role === 'tab' || role === 'option' || role === 'treeitem') && f.words.some((x) => SELECTED_WORDS.has(x))) states.push('selected');
  return { role, inference: { confidence: confidenceOf(evidence), evidence }, states, holder: drop || f.holdsControls };
}

/** `ui-slider-handle navTab` → ui, slider, handle, nav, tab (bounded: a page may write anything there). */
export function classWords(className: string | null, id: string | null): string[] {
  const text = `${className ?? ''} ${id ?? ''}`.slice(0, 400);
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 40);
}
