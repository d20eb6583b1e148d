import { LISTENER_MARK_ATTRIBUTE } from '../../protocol/listener-marks.ts';
import { LIVE_ROLES } from '../../protocol/snapshot.ts';

/**
 * Which elements matter to an observer, decided from tag names and attribute strings only (pure,
 * so it is unit-tested without a DOM). The walker calls these for every element, so they are
 * written as cheap lookups.
 */

/** ARIA roles of widgets a person can operate (WAI-ARIA 1.2 widget roles, plus composite widgets). */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'combobox',
  'gridcell',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

export type AttrReader = (name: string) => string | null;

/** tabindex="0" or higher makes anything focusable; negative or junk does not. */
export function focusableTabIndex(value: string | null): boolean {
  if (value === null) return false;
  const n = Number.parseInt(value.trim(), 10);
  return Number.isFinite(n) && n >= 0;
}

/** contenteditable="" / "true" / "plaintext-only" make an editing host; "false" does not. */
export function isEditingHostValue(value: string | null): boolean {
  if (value === null) return false;
  const v = value.trim().toLowerCase();
  return v === '' || v === 'true' || v === 'plaintext-only';
}

/**
 * Attributes that make an element interactive or a text block, feed its name and description
 * from elsewhere, or carry an ARIA state. Elements carrying none of them (found for a whole
 * subtree with one native querySelectorAll) skip those attribute reads.
 */
/**
 * Classes drag-and-drop libraries give the places they accept drops on, whose handling lives in
 * the library rather than in a listener on the element (jQuery UI's droppable, Dropzone). Whole
 * class tokens only: a class selector is a hash lookup, a substring match would be a scan per element.
 */
export const DROP_ZONE_SELECTOR = '.ui-droppable,.dropzone,.droppable,.drop-zone,.drop-target';
export const STRUCTURAL_ATTRIBUTES_SELECTOR =
  '[role],[tabindex],[contenteditable],[onclick],[aria-live],' +
  // Issue 26: listener marks of the main world, HTML5 drag sources, and the inline handlers other
  // than onclick that make elements live on older pages (each attribute here costs the walker's
  // query a check per element: the rarest handlers are only read when an element is special anyway).
  `[${LISTENER_MARK_ATTRIBUTE}],[draggable="true" i],[onmousedown],[onmouseover],[ondragstart],[ondrop],${DROP_ZONE_SELECTOR}`;
/**
 * The rest: they only matter once an element is known to be interactive (its name, description
 * and states), so they are matched per interactive element, not for every element of a page.
 */
export const NAMING_ATTRIBUTES_SELECTOR =
  '[aria-labelledby],[aria-describedby],[aria-description],[title],' +
  '[aria-expanded],[aria-selected],[aria-pressed],[aria-checked],[aria-required],[aria-readonly],[aria-invalid],[aria-busy],' +
  '[aria-valuetext],[aria-valuenow],[aria-controls],[aria-owns]';

/**
 * Whether an element is something a person can operate: native controls, links with an href,
 * `summary` of a `details`, an interactive ARIA role, tabindex ≥ 0, an editing host, or an inline
 * click handler (older pages make `div`s clickable that way).
 * `parentLocalName` lets `summary` count only as the toggle of its `details`; `special` says
 * whether the element has any of the structural or naming attributes.
 */
export function isInteractive(localName: string, attr: AttrReader, parentLocalName?: string, special = true): boolean {
  return isNativeControl(localName, attr, parentLocalName, special) || (special && focusableOrHandled(attr));
}

/** Focusable by tabindex, an editing host, or an inline click handler: interactive, though no tag or role says what it is. */
function focusableOrHandled(attr: AttrReader): boolean {
  return focusableTabIndex(attr('tabindex')) || isEditingHostValue(attr('contenteditable')) || attr('onclick') !== null;
}

/** A control by its tag (button, field, link with an href, a details' summary) or its interactive ARIA role. */
export function isNativeControl(localName: string, attr: AttrReader, parentLocalName?: string, special = true): boolean {
  switch (localName) {
    case 'button':
    case 'select':
    case 'textarea':
      return true;
    case 'input':
      return (attr('type') ?? '').trim().toLowerCase() !== 'hidden';
    case 'a':
    case 'area':
      if (attr('href') !== null) return true;
      break;
    case 'summary':
      if (parentLocalName === 'details') return true;
      break;
  }
  if (!special) return false;
  const role = attr('role');
  return role !== null && firstRole(role, INTERACTIVE_ROLES) !== undefined;
}

/**
 * Roles an element may carry and still be taken for a control from its behaviour (issue 26): none,
 * or one that says what it is in a document (a list item, a row, an image), not which widget.
 * An element of a composite widget or a landmark (menu, listbox, tablist, dialog, region…) is not.
 */
const INFERABLE_ROLES: ReadonlySet<string> = new Set(['none', 'presentation', 'generic', 'listitem', 'row', 'cell', 'img', 'heading', 'paragraph', 'article']);

/** Whether an element's role attribute (null: none) lets Steward infer a control role for it. */
export function inferableRole(roleAttr: string | null): boolean {
  if (roleAttr === null) return true;
  const first = roleAttr.trim().toLowerCase().split(/\s+/)[0] ?? '';
  return first === '' || INFERABLE_ROLES.has(first);
}

/**
 * Elements never taken for controls of their own: the page's frame and regions, lists and tables
 * (their listeners serve their items, and they may be empty until filled), labels and options,
 * embedded content.
 */
export const NEVER_INFERRED: ReadonlySet<string> = new Set([
  'html',
  'body',
  'head',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'ul',
  'ol',
  'dl',
  'menu',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'label',
  'option',
  'optgroup',
  'datalist',
  'canvas',
  'iframe',
  'frame',
  'video',
  'audio',
  'script',
  'style',
  'template',
  'form',
  'fieldset',
  'dialog',
  'slot',
]);

/** The first token of a role attribute that is in `known` (ARIA allows fallback role lists). */
export function firstRole(roleAttr: string, known: ReadonlySet<string>): string | undefined {
  for (const token of roleAttr.trim().toLowerCase().split(/\s+/)) if (known.has(token)) return token;
  return undefined;
}

const CELL_ROLES: ReadonlySet<string> = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
const HEADING_TAGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const BLOCK_TEXT_TAGS: Record<string, string> = {
  p: 'paragraph',
  li: 'listitem',
  td: 'cell',
  dt: 'term',
  dd: 'definition',
  caption: 'caption',
  figcaption: 'caption',
  legend: 'legend',
  blockquote: 'blockquote',
  pre: 'code',
  output: 'status',
};

export interface TextBlockKind {
  readonly role: string;
  readonly level?: number;
}

// The answers that depend on the tag alone, made once: the walker asks for every cell of a table.
// (Maps, not object lookups: a page may use any tag name, `<constructor>` included.)
const HEADING_KINDS = new Map<string, TextBlockKind>(Object.entries(HEADING_TAGS).map(([tag, level]) => [tag, Object.freeze({ role: 'heading', level })]));
const BLOCK_KINDS = new Map<string, TextBlockKind>(Object.entries(BLOCK_TEXT_TAGS).map(([tag, role]) => [tag, Object.freeze({ role })]));
const COLUMN_HEADER: TextBlockKind = Object.freeze({ role: 'columnheader' });
const ROW_HEADER: TextBlockKind = Object.freeze({ role: 'rowheader' });

/**
 * Whether an element is a block of text worth reporting on its own (headings, live regions,
 * cells, paragraphs, list items, definitions, captions) and with which role.
 */
export function textBlockKind(localName: string, attr: AttrReader, special = true): TextBlockKind | undefined {
  const roleAttr = special ? attr('role') : null;
  if (roleAttr !== null) {
    const role = roleAttr.trim().toLowerCase().split(/\s+/)[0] ?? '';
    if (role === 'heading') return { role, level: ariaLevel(attr('aria-level')) ?? HEADING_KINDS.get(localName)?.level ?? 2 };
    if (LIVE_ROLES.has(role) || CELL_ROLES.has(role)) return { role };
    if (role === 'paragraph' || role === 'note' || role === 'definition' || role === 'term') return { role };
  }
  const heading = HEADING_KINDS.get(localName);
  if (heading !== undefined) return heading;
  const live = special ? attr('aria-live') : null;
  if (live !== null && (live === 'polite' || live === 'assertive')) return { role: live === 'assertive' ? 'alert' : 'status' };
  if (localName === 'th') return (attr('scope') ?? '').toLowerCase() === 'row' ? ROW_HEADER : COLUMN_HEADER;
  return BLOCK_KINDS.get(localName);
}

function ariaLevel(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isInteger(n) && n >= 1 && n <= 9 ? n : undefined;
}

/** Elements whose own text is never page content for an observer (code, styles, form internals). */
export const NON_CONTENT_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'title', 'head', 'textarea', 'select', 'option', 'optgroup', 'datalist', 'label']);

/** A dialog is a container of one row, its own content (so a dialog a control opened can be shown under it). */
export const DIALOG_SELECTOR = 'dialog,[role=dialog],[role=alertdialog]';

/** Selector for a row-like element: one repetition of a table, list, grid, listbox, menu or tree (and a dialog, its own single row). */
export const ROW_SELECTOR = `tr,li,[role=row],[role=listitem],[role=option],[role=treeitem],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=article],${DIALOG_SELECTOR}`;

/**
 * Roles of focusable lists and tables, whose name comes from their author only (never from their
 * content): their text is page content (a jQuery UI suggestion list is a focusable `<ul>`). A
 * listbox, menu, tree or tablist holds options, items and tabs that carry their own words.
 */
export const CONTENT_HOLDING_ROLES: ReadonlySet<string> = new Set(['list', 'table', 'grid', 'treegrid', 'feed']);

/** Selector for the container of rows. */
export const CONTAINER_SELECTOR = `table,ul,ol,menu,[role=table],[role=grid],[role=treegrid],[role=list],[role=listbox],[role=tree],[role=menu],[role=menubar],[role=tablist],[role=feed],[role=radiogroup],${DIALOG_SELECTOR}`;

/** Snapshot role name of a container element. */
export function containerRole(localName: string, roleAttr: string | null): string {
  if (roleAttr !== null) {
    const role = roleAttr.trim().toLowerCase().split(/\s+/)[0];
    if (role) return role;
  }
  if (localName === 'table') return 'table';
  if (localName === 'dialog') return 'dialog';
  return 'list';
}
