/**
 * The widget tasks (issue 26): small jobs on the widget pages, each as an agent receives it (one
 * English sentence) with what the server must have received when it is done. The bench's
 * scripted agents solve each once from Steward's view and once from Playwright's ariaSnapshot();
 * test/e2e/widgets-pages.spec.ts solves each as a person would, proving pages and tasks agree.
 *
 * How a run is judged: open `withEpisode(task.path, episode)`, act, then read
 * `answersFor(lab, episode)`: the task is solved when the first answer the page sent is
 * `expected` (deep-equal). The first counts, as when a person's first pick is the one that
 * counts: clicking the wrong circle and then the right one is a failure.
 *
 * Some need what only a DOM reader knows (the colour and size of unlabelled SVG shapes,
 * `<span>`s and `<div>`s live only through listeners, icon-only openers); some need key presses,
 * hover or drag; the canvas task is a blind spot for both views; the file task is the person's
 * alone (Steward refuses to choose a file).
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { EpisodeId } from './answers.ts';
import { WIDGET_KITS } from './page.ts';

export const WIDGET_CLASSES = [
  'date-picker',
  'autocomplete',
  'slider',
  'spinner',
  'hover-menu',
  'select',
  'accordion',
  'tabs',
  'dialog',
  'sortable',
  'drag-drop',
  'checkbox',
  'icon-menu',
  'tree',
  'date-field',
  'number',
  'color',
  'file',
  'select-multiple',
  'clickable-text',
  'disclosure',
  'list-row',
  'covered',
  'keyboard',
  'svg-shape',
  'canvas',
  'stepper',
] as const;

export const WidgetTask = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{3,48}$/),
    /** The widget class the task exercises. */
    widget: z.enum(WIDGET_CLASSES),
    kit: z.enum(WIDGET_KITS),
    /** Path on the lab site with the task's parameters; the episode id is added by `withEpisode`. */
    path: z.string().regex(/^\/widgets\/[a-z0-9-]+(\?[\w=&,.-]*)?$/),
    /** One English sentence, as the agent receives it. */
    goal: z.string().min(10).max(200),
    /** What the server must have received first for the episode (compared deeply). */
    expected: z.json(),
  })
  .strict();
export type WidgetTask = z.infer<typeof WidgetTask>;

const t = (id: string, widget: WidgetTask['widget'], kit: WidgetTask['kit'], path: string, goal: string, expected: WidgetTask['expected']): WidgetTask => ({ id, widget, kit, path, goal, expected });

export const WIDGET_TASKS: readonly WidgetTask[] = [
  t('jq-datepicker', 'date-picker', 'jquery-ui', '/widgets/jq-datepicker?month=2026-11', 'Select 2026-12-07 in the date picker and press Submit.', { date: '2026-12-07' }),
  t('jq-autocomplete', 'autocomplete', 'jquery-ui', '/widgets/jq-autocomplete', 'Type "Li" into City, choose "Lisbon, Portugal" from the suggestions and press Submit.', { city: 'Lisbon, Portugal' }),
  t('jq-slider', 'slider', 'jquery-ui', '/widgets/jq-slider?start=40', 'Set the maximum price per night to €70 with the slider and press Apply.', { max_price: 70 }),
  t('jq-spinner', 'spinner', 'jquery-ui', '/widgets/jq-spinner', 'Set Guests to 4 and press Book.', { guests: 4 }),
  t('jq-menu', 'hover-menu', 'jquery-ui', '/widgets/jq-menu', 'In the account menu, open Settings and choose Privacy.', { item: 'Privacy' }),
  t('jq-selectmenu', 'select', 'jquery-ui', '/widgets/jq-selectmenu', 'Choose "Express (1–2 days)" as the shipping speed and press Continue.', { speed: 'express' }),
  t('jq-accordion', 'accordion', 'jquery-ui', '/widgets/jq-accordion', 'Open the Returns section and press "Start a return".', { action: 'return' }),
  t('jq-tabs', 'tabs', 'jquery-ui', '/widgets/jq-tabs', 'Go to the Shipping tab and press "Use a pickup point".', { action: 'pickup' }),
  t('jq-dialog', 'dialog', 'jquery-ui', '/widgets/jq-dialog', 'Press "Review terms", close the dialog with the Escape key, then press Continue.', { dialog: 'escape' }),
  t('jq-sortable', 'sortable', 'jquery-ui', '/widgets/jq-sortable?order=0,1,2,3', 'Drag "Pay invoices" to the top of the list and press "Save order".', {
    order: ['Pay invoices', 'Book dentist', 'Renew passport', 'Call the plumber'],
  }),
  t('jq-draggable', 'drag-drop', 'jquery-ui', '/widgets/jq-draggable', 'Drag the "Q3 report" card onto the Archive bin.', { archived: 'q3-report' }),
  t('jq-checkboxradio', 'checkbox', 'jquery-ui', '/widgets/jq-checkboxradio', 'Choose the Window seat, tick "Extra legroom" and press Confirm.', { seat: 'window', extras: ['legroom'] }),
  t('mui-autocomplete', 'autocomplete', 'react-mui', '/widgets/mui-autocomplete', 'Choose Portugal as the country and press Submit.', { country: 'Portugal' }),
  t('mui-slider', 'slider', 'react-mui', '/widgets/mui-slider', 'Set Volume to 30 and press Save.', { volume: 30 }),
  t('mui-tabs', 'tabs', 'react-mui', '/widgets/mui-tabs', 'Open the Billing tab and press "Download invoice".', { action: 'download-invoice' }),
  t('mui-menu', 'icon-menu', 'react-mui', '/widgets/mui-menu', "Open the project's menu (the icon button beside its name) and choose Archive.", { action: 'archive' }),
  t('mui-accordion', 'accordion', 'react-mui', '/widgets/mui-accordion', 'Open "Delivery instructions", tick "Leave at the door" and press Save.', { leave_at_door: true }),
  t('mui-tree', 'tree', 'react-mui', '/widgets/mui-tree', 'In the file tree, open Reports › 2026 › q3-summary.pdf.', { opened: 'Reports/2026/q3-summary.pdf' }),
  t('mui-date', 'date-field', 'react-mui', '/widgets/mui-date', 'Set the delivery date to 2026-12-24 and press Schedule.', { date: '2026-12-24' }),
  t('native-date', 'date-field', 'native', '/widgets/native-date', 'Set Departure to 2027-01-15 and press "Search flights".', { departure: '2027-01-15' }),
  t('native-range', 'slider', 'native', '/widgets/native-range', 'Set Brightness to 75 and press Apply.', { brightness: '75' }),
  t('native-number', 'number', 'native', '/widgets/native-number', 'Set Tickets to 3 and press Buy.', { tickets: '3' }),
  t('native-color', 'color', 'native', '/widgets/native-color', 'Set the accent colour to #1e90ff and press Save.', { accent: '#1e90ff' }),
  t('native-file', 'file', 'native', '/widgets/native-file', 'Attach a file to the form and press Upload.', { files: 1 }),
  t('native-select-multiple', 'select-multiple', 'native', '/widgets/native-select-multiple', 'Choose Mushrooms and Olives as toppings and press Order.', { toppings: ['mushrooms', 'olives'] }),
  t('v-span-link', 'clickable-text', 'vanilla', '/widgets/v-span-link', 'Open the article "Bleeding hydraulic brakes".', { opened: 'brakes' }),
  t('v-div-tabs', 'tabs', 'vanilla', '/widgets/v-div-tabs', 'Switch to the Reviews tab and press "Write a review".', { action: 'write-review' }),
  t('v-collapsible', 'disclosure', 'vanilla', '/widgets/v-collapsible', 'Open the Downloads section and press "Download manual".', { action: 'manual' }),
  t('v-tree', 'tree', 'vanilla', '/widgets/v-tree', 'In My drive, open Documents › Invoices › invoice-2026-11.pdf.', { opened: 'Documents/Invoices/invoice-2026-11.pdf' }),
  t('v-inbox', 'list-row', 'vanilla', '/widgets/v-inbox', 'Open the email from Omar Haddad.', { opened: 'm3' }),
  t('v-icon-menu', 'icon-menu', 'vanilla', '/widgets/v-icon-menu', 'Open the actions menu of Invoice 1042 (the icon at the end of its row) and choose Duplicate.', {
    invoice: 'inv-1042',
    action: 'duplicate',
  }),
  t('v-covered-sticky', 'covered', 'vanilla', '/widgets/v-covered', 'Press "Save draft".', { pressed: 'Save draft' }),
  t('v-covered-sibling', 'covered', 'vanilla', '/widgets/v-covered', 'Press "Add to list".', { pressed: 'Add to list' }),
  t('v-covered-overlay', 'covered', 'vanilla', '/widgets/v-covered', 'Press "Preview".', { pressed: 'Preview' }),
  t('v-covered-banner', 'covered', 'vanilla', '/widgets/v-covered', 'Press Publish.', { pressed: 'Publish' }),
  t('v-search', 'keyboard', 'vanilla', '/widgets/v-search', 'Search for "trail shoes" (the search runs when you press Enter).', { query: 'trail shoes' }),
  t('v-listbox', 'keyboard', 'vanilla', '/widgets/v-listbox', 'Choose Large in the size list with the keyboard (arrow keys, then Enter).', { size: 'Large' }),
  t('v-escape-dialog', 'keyboard', 'vanilla', '/widgets/v-escape-dialog', 'Dismiss the newsletter dialog with the Escape key, then press "Read more".', { action: 'read-more', dialog: 'escape' }),
  t('v-shortcut', 'keyboard', 'vanilla', '/widgets/v-shortcut', 'Save the note with the keyboard shortcut Control+S.', { saved: 'Buy oat milk' }),
  t('v-hover-css', 'hover-menu', 'vanilla', '/widgets/v-hover-menu', 'Open the Products menu and choose Tablets.', { menu: 'Products', item: 'Tablets' }),
  t('v-hover-js', 'hover-menu', 'vanilla', '/widgets/v-hover-menu', 'Open the Support menu and choose Returns.', { menu: 'Support', item: 'Returns' }),
  t('v-drag-drop', 'drag-drop', 'vanilla', '/widgets/v-drag-drop', 'Move the card "Fix login bug" to the Done column.', { card: 'Fix login bug', zone: 'done' }),
  t('v-pointer-sort', 'sortable', 'vanilla', '/widgets/v-pointer-sort?order=0,1,2,3,4', 'Drag "Bananas" to the top of the list and press "Save list".', {
    order: ['Bananas', 'Apples', 'Bread', 'Cheese', 'Tomatoes'],
  }),
  t('v-svg-large-red', 'svg-shape', 'vanilla', '/widgets/v-svg-shapes?layout=2', 'Click the large red circle.', { shape: 'circle', color: 'red', size: 'large' }),
  t('v-svg-small-blue', 'svg-shape', 'vanilla', '/widgets/v-svg-shapes?layout=5', 'Click the small blue square.', { shape: 'square', color: 'blue', size: 'small' }),
  t('v-canvas', 'canvas', 'vanilla', '/widgets/v-canvas?layout=1', 'Click the blue square drawn on the canvas.', { hit: 'blue square' }),
  t('v-quantity', 'stepper', 'vanilla', '/widgets/v-quantity?start=1', 'Set the quantity to 3 and press "Add to basket".', { quantity: 3 }),
];

/** The task's page for one episode: its path with `episode=<id>` added. */
export function withEpisode(path: string, episode: string): string {
  const id = EpisodeId.parse(episode);
  return `${path}${path.includes('?') ? '&' : '?'}episode=${id}`;
}

/** The slug of the page a task runs on (`/widgets/<slug>?…`). */
export function taskSlug(task: Pick<WidgetTask, 'path'>): string {
  return task.path.slice('/widgets/'.length).split('?')[0]!;
}

export const AnswerRecord = z.object({ seq: z.number().int(), at: z.string(), episode: EpisodeId, slug: z.string(), answer: z.json() });
export type AnswerRecord = z.infer<typeof AnswerRecord>;

/** What the lab at `baseUrl` received for an episode, oldest first. */
export async function answersFor(baseUrl: string, episode: string): Promise<AnswerRecord[]> {
  const res = await fetch(new URL(`/widgets/__answers?episode=${encodeURIComponent(EpisodeId.parse(episode))}`, baseUrl), { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET /widgets/__answers answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return z.array(AnswerRecord).parse(await res.json());
}

/** Whether an episode solved the task: the first answer its page sent is the expected one. */
export function judge(task: WidgetTask, answers: readonly AnswerRecord[]): { solved: boolean; first: unknown } {
  const first = answers.find((a) => a.slug === taskSlug(task));
  return { solved: first !== undefined && isDeepStrictEqual(first.answer, task.expected), first: first?.answer };
}
