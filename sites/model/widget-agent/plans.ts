import type { Target, Until } from './view.ts';

/**
 * How a person does each widget task (sites/lab/widgets/tasks.ts), written once in the words a
 * person uses — click the control named X, the icon in the row that says Y, the large red circle;
 * type T into F; press Escape; drag A onto B; press ArrowRight until the value is 70 — and never
 * in terms of one view (no refs, no selectors). A resolver per view (Steward's look, the
 * ariaSnapshot) turns each target into an action; see episode.ts.
 */

/** One step on something a target names. */
export type SimpleStep =
  | { do: 'click'; target: Target }
  | { do: 'type'; target: Target; text: string }
  | { do: 'select'; target: Target; values: string[] }
  | { do: 'press'; key: string; target?: Target }
  | { do: 'hover'; target: Target }
  /** Drop onto `onto` (its upper part with `at: 'top'`, as a person drops an item above another). */
  | { do: 'drag'; target: Target; onto: Target; at?: 'top' }
  | { do: 'check'; target: Target; checked: boolean }
  | { do: 'upload'; target: Target };

export type Step =
  | SimpleStep
  /** The step again, looking after each, until the view shows `until` (at most `max` times). */
  | { do: 'repeat'; step: SimpleStep; until: Until; max: number };

export interface Plan {
  task: string;
  steps: Step[];
}

/** The control (or text) named `name`, of one of `roles` if it can be. */
const named = (name: string, ...roles: string[]): Target => ({ name, ...(roles.length > 0 ? { roles } : {}), said: JSON.stringify(name) });

const BUTTON = ['button', 'link'];
const OPTION = ['option', 'menuitem', 'treeitem', 'link', 'gridcell'];
const FIELD = ['textbox', 'searchbox', 'combobox', 'spinbutton'];

const click = (name: string, ...roles: string[]): SimpleStep => ({ do: 'click', target: named(name, ...(roles.length > 0 ? roles : BUTTON)) });
const choose = (name: string): Step => ({ do: 'click', target: named(name, ...OPTION) });
const type = (text: string, field: string, ...roles: string[]): Step => ({ do: 'type', target: named(field, ...(roles.length > 0 ? roles : FIELD)), text });
const press = (key: string, target?: Target): SimpleStep => ({ do: 'press', key, ...(target ? { target } : {}) });
const hover = (name: string, ...roles: string[]): Step => ({ do: 'hover', target: named(name, ...roles) });
const check = (name: string, role: string): Step => ({ do: 'check', target: named(name, role), checked: true });
const repeat = (step: SimpleStep, until: Until, max: number): Step => ({ do: 'repeat', step, until, max });

export const WIDGET_PLANS: readonly Plan[] = [
  {
    task: 'jq-datepicker',
    steps: [click('Date', 'textbox'), repeat(click('Next', 'link', 'button'), { says: 'December' }, 4), click('7', 'link', 'gridcell', 'button'), click('Submit')],
  },
  { task: 'jq-autocomplete', steps: [type('Li', 'City'), choose('Lisbon, Portugal'), click('Submit')] },
  {
    task: 'jq-slider',
    steps: [repeat(press('ArrowRight', { roles: ['slider'], only: true, said: 'the slider' }), { says: '€70' }, 10), click('Apply')],
  },
  { task: 'jq-spinner', steps: [type('4', 'Guests', 'spinbutton', 'textbox'), click('Book')] },
  { task: 'jq-menu', steps: [hover('Settings', 'menuitem'), choose('Privacy')] },
  {
    task: 'jq-selectmenu',
    steps: [{ do: 'click', target: { name: 'Shipping speed', roles: ['combobox', 'button'], only: true, said: 'the "Shipping speed" menu' } }, choose('Express (1–2 days)'), click('Continue')],
  },
  { task: 'jq-accordion', steps: [click('Returns', 'tab', 'button', 'heading'), click('Start a return')] },
  { task: 'jq-tabs', steps: [click('Shipping', 'tab', 'link'), click('Use a pickup point')] },
  { task: 'jq-dialog', steps: [click('Review terms'), press('Escape'), click('Continue')] },
  { task: 'jq-sortable', steps: [{ do: 'drag', target: named('Pay invoices', 'listitem', 'option'), onto: named('Book dentist', 'listitem', 'option'), at: 'top' }, click('Save order')] },
  { task: 'jq-draggable', steps: [{ do: 'drag', target: named('Q3 report'), onto: named('Archive') }] },
  { task: 'jq-checkboxradio', steps: [check('Window', 'radio'), check('Extra legroom', 'checkbox'), click('Confirm')] },
  { task: 'mui-autocomplete', steps: [type('Po', 'Country', 'combobox', 'textbox'), choose('Portugal'), click('Submit')] },
  {
    task: 'mui-slider',
    steps: [repeat(press('ArrowLeft', named('Volume', 'slider')), { valueIn: named('Volume', 'slider'), is: '30' }, 10), click('Save')],
  },
  { task: 'mui-tabs', steps: [click('Billing', 'tab'), click('Download invoice')] },
  {
    task: 'mui-menu',
    steps: [{ do: 'click', target: { unnamed: true, roles: ['button'], near: 'Project Apollo', said: "the icon button beside the project's name" } }, choose('Archive')],
  },
  { task: 'mui-accordion', steps: [click('Delivery instructions', 'button'), check('Leave at the door', 'checkbox'), click('Save')] },
  { task: 'mui-tree', steps: [click('Reports', 'treeitem', 'button'), click('2026', 'treeitem', 'button'), click('q3-summary.pdf', 'treeitem', 'button')] },
  { task: 'mui-date', steps: [type('2026-12-24', 'Delivery date', 'textbox'), click('Schedule')] },
  { task: 'native-date', steps: [type('2027-01-15', 'Departure', 'textbox'), click('Search flights')] },
  { task: 'native-range', steps: [repeat(press('ArrowRight', named('Brightness', 'slider')), { valueIn: named('Brightness', 'slider'), is: '75' }, 12), click('Apply')] },
  { task: 'native-number', steps: [type('3', 'Tickets', 'spinbutton', 'textbox'), click('Buy')] },
  { task: 'native-color', steps: [type('#1e90ff', 'Accent colour', 'textbox', 'button'), click('Save')] },
  { task: 'native-file', steps: [{ do: 'upload', target: named('Attachment', 'button', 'textbox') }, click('Upload')] },
  { task: 'native-select-multiple', steps: [{ do: 'select', target: named('Toppings', 'listbox'), values: ['Mushrooms', 'Olives'] }, click('Order')] },
  { task: 'v-span-link', steps: [click('Bleeding hydraulic brakes', 'link', 'button')] },
  { task: 'v-div-tabs', steps: [click('Reviews', 'tab', 'button'), click('Write a review')] },
  { task: 'v-collapsible', steps: [click('Downloads', 'button', 'heading'), click('Download manual')] },
  { task: 'v-tree', steps: [click('Documents', 'treeitem', 'button'), click('Invoices', 'treeitem', 'button'), click('invoice-2026-11.pdf', 'treeitem', 'button', 'link')] },
  { task: 'v-inbox', steps: [click('Omar Haddad', 'row', 'link', 'button', 'listitem')] },
  {
    task: 'v-icon-menu',
    steps: [{ do: 'click', target: { unnamed: true, roles: ['button'], near: 'Invoice 1042', said: "the icon at the end of the row 'Invoice 1042'" } }, choose('Duplicate')],
  },
  { task: 'v-covered-sticky', steps: [click('Save draft')] },
  { task: 'v-covered-sibling', steps: [click('Add to list')] },
  { task: 'v-covered-overlay', steps: [click('Preview')] },
  // The cookie banner lies over Publish: a person closes it first.
  { task: 'v-covered-banner', steps: [click('Close'), click('Publish')] },
  { task: 'v-search', steps: [type('trail shoes', 'Search products', 'searchbox', 'textbox'), press('Enter', named('Search products', 'searchbox', 'textbox'))] },
  {
    task: 'v-listbox',
    steps: [repeat(press('ArrowDown', named('Size', 'listbox')), { stateOf: named('Large', 'option'), has: 'selected' }, 6), press('Enter', named('Size', 'listbox'))],
  },
  { task: 'v-escape-dialog', steps: [press('Escape'), click('Read more')] },
  // Keys go to the focus: a person clicks into the note first, then saves.
  { task: 'v-shortcut', steps: [press('Control+s', { name: 'Buy oat milk', roles: ['textbox'], said: 'the note' })] },
  { task: 'v-hover-css', steps: [hover('Products', 'menuitem', 'button', 'link'), click('Tablets', 'link', 'menuitem')] },
  { task: 'v-hover-js', steps: [hover('Support', 'menuitem', 'button', 'link'), click('Returns', 'link', 'menuitem')] },
  { task: 'v-drag-drop', steps: [{ do: 'drag', target: named('Fix login bug'), onto: named('Done', 'region', 'group', 'heading') }] },
  {
    task: 'v-pointer-sort',
    steps: [{ do: 'drag', target: { name: '⠿', near: 'Bananas', said: "the grip of the row 'Bananas'" }, onto: named('Apples', 'listitem'), at: 'top' }, click('Save list')],
  },
  { task: 'v-svg-large-red', steps: [{ do: 'click', target: { shape: { kind: 'circle', color: 'red', size: 'large' }, said: 'the large red circle' } }] },
  { task: 'v-svg-small-blue', steps: [{ do: 'click', target: { shape: { kind: 'square', color: 'blue', size: 'small' }, said: 'the small blue square' } }] },
  { task: 'v-canvas', steps: [{ do: 'click', target: { shape: { kind: 'square', color: 'blue' }, said: 'the blue square drawn on the canvas' } }] },
  { task: 'v-quantity', steps: [repeat(click('+', 'button'), { valueIn: { unnamed: true, roles: ['textbox', 'spinbutton'], near: '−', said: 'the quantity' }, is: '3' }, 5), click('Add to basket')] },
];

/** How a step reads in a report: `click "Reports"`, `press ArrowRight on the price slider`. */
export function stepWords(step: Step): string {
  switch (step.do) {
    case 'click':
    case 'hover':
    case 'upload':
      return `${step.do} ${step.target.said}`;
    case 'type':
      return `type ${JSON.stringify(step.text)} into ${step.target.said}`;
    case 'select':
      return `select ${step.values.map((v) => JSON.stringify(v)).join(', ')} in ${step.target.said}`;
    case 'press':
      return `press ${step.key}${step.target ? ` on ${step.target.said}` : ''}`;
    case 'drag':
      return `drag ${step.target.said} onto ${step.at === 'top' ? 'the top of ' : ''}${step.onto.said}`;
    case 'check':
      return `${step.checked ? 'check' : 'uncheck'} ${step.target.said}`;
    case 'repeat':
      return `${stepWords(step.step)} (repeated)`;
  }
}
