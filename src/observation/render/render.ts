import type { AvailableAction } from '../../protocol/action.ts';
import type { Fact, ObservedState } from '../../protocol/observed-state.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { PageSnapshot, SnapshotContainer, SnapshotElement } from '../../protocol/snapshot.ts';
import {
  canvasLine,
  compactRefs,
  coveredWords,
  elementLine,
  factLines,
  joinedElements,
  rowLine,
  structuredLine,
  textLine,
  toolLine,
  words,
  type ElementLineOptions,
  type LineCarry,
  type LineDetail,
} from './format.ts';
import { headerLines, SAID_BY_CANVAS, type ObservedSummary } from './header.ts';
import { actionMark, requiresApproval, stepMark, stepsByRef, type NeedsApproval, type RefSteps } from './marks.ts';
import { quote, word } from './page-words.ts';
import { blocks, nameShape, orderedItems, rowShape, type Block, type ContainerGroup, type Item } from './items.ts';

/**
 * The compact text an LLM reads (pure). Everything interactive is addressed by ref, and the
 * actions are folded in: a control's line carries what a step on it needs (`!` the person's
 * approval, `$` payment), the site's own actions and tools have a line each, and the DOM steps'
 * inputs are said once by the caller (the co-pilot's prompt, the bridge's tool schema), never per
 * element. Long tables and lists are shown as their header, a few example rows and a summary of
 * the rest; runs of look-alike controls outside containers are cut the same way; a popup (a
 * suggestion list, a menu, a date grid, a dialog) follows the control that opened it. The
 * rendering tries three levels of detail and keeps the richest one that fits `maxChars`; whatever
 * it leaves out stays reachable through `expand(ref)` and `query({...})`.
 */

interface RenderExtras {
  observed?: ObservedSummary;
  facts?: Fact[];
  tools?: ToolDescriptor[];
  /** The observation's actions: the marks on controls and the site's actions line. */
  actions?: AvailableAction[];
  /** Whose approval rule the marks show (default: the observation's `requires_approval`). */
  needsApproval?: NeedsApproval;
  /** Name a resource that is the page itself (`page localhost:4100/x`): an MCP client passes it to steward_execute; the co-pilot's prompt says it elsewhere. */
  pageResource?: boolean;
  /** Character budget; the default (~14k chars) stays under 4,000 tokens. */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 14_000;

interface Level {
  exampleRows: number;
  smallContainer: number;
  runMin: number;
  runShow: number;
  line: LineDetail;
  /** Share of the budget plain texts may take. */
  textShare: number;
  inlineHidden: number;
  maxFacts: number;
  toolText: number;
  maxStructured: number;
}

const LEVELS: Level[] = [
  { exampleRows: 3, smallContainer: 10, runMin: 6, runShow: 3, line: { maxText: 160, rich: true, maxOptions: 5 }, textShare: 0.35, inlineHidden: 25, maxFacts: 40, toolText: 240, maxStructured: 6 },
  { exampleRows: 2, smallContainer: 5, runMin: 4, runShow: 2, line: { maxText: 100, rich: true, maxOptions: 3 }, textShare: 0.2, inlineHidden: 12, maxFacts: 25, toolText: 120, maxStructured: 3 },
  { exampleRows: 1, smallContainer: 3, runMin: 3, runShow: 1, line: { maxText: 60, rich: false }, textShare: 0.1, inlineHidden: 5, maxFacts: 15, toolText: 60, maxStructured: 1 },
];

/** Containers whose cells line up in columns: shown row by row, numbered (expand pages by row). */
/** What makes controls look alike: role, name up to its numbers, and a shape's kind, colours and size (a red circle is not like a blue square). */
const lookOf = (e: SnapshotElement) => `${e.role}|${nameShape(e.name)}${e.shape ? `|${e.shape.kind} ${e.shape.fill ?? ''} ${e.shape.stroke ?? ''} ${e.shape.size ?? ''}` : ''}`;

const TABULAR = new Set(['table', 'grid', 'treegrid']);
/** A list whose rows fit on one line this long is shown on it (`tablist e3: e4 tab "A" · e5 tab "B"`). */
const INLINE_LIST_CHARS = 200;
/** Plain texts in a row are joined on one line up to this long. */
const MERGED_TEXT_CHARS = 240;

export interface ObservedOptions {
  needsApproval?: NeedsApproval;
  pageResource?: boolean;
}

/** The page as an agent reads it next to its fused state: the state, its facts, the page's tools and the actions (the co-pilot's prompt and the MCP bridge alike). */
export function renderObserved(s: PageSnapshot, state: ObservedState, options: ObservedOptions = {}): string {
  return renderSnapshot(s, {
    observed: state,
    ...(state.facts ? { facts: state.facts } : {}),
    ...(state.tools ? { tools: state.tools } : {}),
    ...(state.actions ? { actions: state.actions } : {}),
    ...options,
  });
}

export function renderSnapshot(s: PageSnapshot, extras: RenderExtras = {}): string {
  const maxChars = extras.maxChars ?? DEFAULT_MAX_CHARS;
  const items = orderedItems(s);
  const grouped = blocks(items);
  let out = '';
  for (const level of LEVELS) {
    out = new Renderer(s, extras, level, maxChars).render(grouped);
    if (out.length <= maxChars) return out;
  }
  const cut = out.lastIndexOf('\n', maxChars - 80);
  return `${out.slice(0, cut > 0 ? cut : maxChars - 80)}\n… (cut to fit; expand(ref) and query({role, name, text}) reach everything)`;
}

class Renderer {
  private readonly lines: string[] = [];
  private textChars = 0;
  private textsSkipped = 0;
  private inlineHidden = 0;
  private hiddenCount = 0;
  private readonly overflow = new Map<string, number>();
  private readonly notVisibleRun: SnapshotElement[] = [];
  private readonly passiveRun: SnapshotElement[] = [];
  private readonly containers: Map<string, SnapshotContainer>;
  private readonly groups = new Map<string, ContainerGroup>();
  /** Refs the facts read their values from: the only text refs worth printing. */
  private readonly pointedAt: Set<string>;
  private readonly steps: Map<string, RefSteps>;
  /** Control ref → the popups it opened; popup ref → its control. */
  private readonly popupsOf = new Map<string, string[]>();
  private readonly openerOf = new Map<string, string>();
  private readonly printed = new Set<string>();
  private readonly popupsShown = new Set<string>();
  /** Popups reached before their control: shown with it, or at the end if it never comes. */
  private readonly deferred: string[] = [];
  /** Elements that are containers too (a listbox, a tree): one line says both. */
  private readonly elementByRef: Map<string, SnapshotElement>;
  /** Refs with a line of their own (any element not hidden): a cover among them is named by its ref, its line says the rest. */
  private readonly shownRefs: Set<string>;

  constructor(
    private readonly s: PageSnapshot,
    private readonly extras: RenderExtras,
    private readonly level: Level,
    private readonly maxChars: number,
  ) {
    this.containers = new Map((s.containers ?? []).map((c) => [c.ref, c]));
    this.pointedAt = new Set(shownFacts(extras).flatMap((f) => (f.ref ? [f.ref] : [])));
    this.steps = stepsByRef(extras.actions ?? [], this.needs);
    this.elementByRef = new Map(s.elements.map((e) => [e.ref, e]));
    this.shownRefs = new Set(s.elements.flatMap((e) => (unseen(e) ? [] : [e.ref])));
    this.controlNames = [...new Set(s.elements.flatMap((e) => (e.name ? [e.name] : [])))];
  }

  /** Every control's name: a row's text that is its control's name and then only these (a tree item's text holding its branch's items) says nothing their lines do not. */
  private readonly controlNames: string[];

  private get needs(): NeedsApproval {
    return this.extras.needsApproval ?? requiresApproval;
  }

  render(grouped: Block[]): string {
    for (const b of grouped) if (b.kind === 'container') this.groups.set(b.group.ref, b.group);
    this.linkPopups();
    this.header();
    this.body(grouped);
    this.flushRuns();
    for (const ref of this.deferred) if (!this.popupsShown.has(ref)) this.container(this.groups.get(ref)!, this.openerOf.get(ref));
    this.trailer();
    return this.lines.join('\n');
  }

  /** Which control opened which popup: the popup's `openedBy`, or the control's `controls`. */
  private linkPopups(): void {
    const link = (opener: string, popup: string) => {
      if (!this.groups.has(popup) || this.openerOf.has(popup) || opener === popup) return;
      this.openerOf.set(popup, opener);
      this.popupsOf.set(opener, [...(this.popupsOf.get(opener) ?? []), popup]);
    };
    for (const c of this.s.containers ?? []) if (c.openedBy) link(c.openedBy, c.ref);
    for (const e of this.s.elements) if (e.controls) link(e.ref, e.controls);
  }

  private header(): void {
    const tools = this.extras.tools ?? [];
    const actions = this.extras.actions ?? [];
    this.lines.push(...headerLines(this.s, this.extras, this.needs));
    if (tools.length > 0) {
      const byName = new Map(actions.filter((a) => a.via === 'webmcp').map((a) => [a.action, a]));
      this.lines.push('Tools:');
      for (const t of tools) this.lines.push(toolLine(t, this.level.toolText, this.s.forms.find((f) => f.toolname === t.name)?.ref, actionMark(byName.get(t.name), this.needs)));
    }
    const facts = shownFacts(this.extras);
    if (facts.length > 0) {
      this.lines.push(...factLines(facts.slice(0, this.level.maxFacts), this.level.line.maxText));
      if (facts.length > this.level.maxFacts) this.lines.push(`… ${facts.length - this.level.maxFacts} more facts`);
    }
  }

  private mark = (e: SnapshotElement): string => stepMark(this.steps.get(e.ref));

  /** What a control's line says besides itself: its mark, and a cover by ref alone when the cover has its own line. */
  private lineOptions = (e: SnapshotElement): ElementLineOptions => ({ mark: this.mark(e), ...(e.coveredBy?.ref && this.shownRefs.has(e.coveredBy.ref) ? { coverByRef: true } : {}) });

  private body(grouped: Block[]): void {
    for (let i = 0; i < grouped.length; i++) {
      const block = grouped[i]!;
      if (block.kind === 'container') {
        const opener = this.openerOf.get(block.group.ref);
        if (opener !== undefined) {
          // Shown right after its control; one not reached yet waits for it.
          if (!this.printed.has(opener)) this.deferred.push(block.group.ref);
          continue;
        }
        if (this.popupsShown.has(block.group.ref)) continue;
        this.flushRuns();
        this.container(block.group);
        continue;
      }
      if (block.item.kind === 'text') {
        if (!saysNothing(block.item, grouped, i, this.containers)) this.text(block.item);
        continue;
      }
      const run = this.runFrom(grouped, i);
      if (run.length >= this.level.runMin) {
        this.flushRuns();
        for (const el of run.slice(0, this.level.runShow)) this.element(el);
        const rest = run.slice(this.level.runShow);
        this.lines.push(
          `  … ${rest.length} more ${word(run[0]!.role, 40)} like ${quote(nameShape(run[0]!.name), 60)}: ${compactRefs(
            rest.map((e) => e.ref),
            4,
          )}`,
        );
        for (const el of rest) this.printed.add(el.ref);
        i += run.length - 1;
        continue;
      }
      const { siblings, span } = this.sameRoleFrom(grouped, i);
      if (siblings.length > 1) {
        this.flushRuns();
        this.lines.push(joinedElements(siblings, (e, showRole) => elementLine(e, this.s.url, this.level.line, { ...this.lineOptions(e), showRole })));
        for (const el of siblings) this.printed.add(el.ref);
        // The hidden controls between them are counted, as anywhere else.
        for (let k = i; k < i + span; k++) {
          const b = grouped[k]!;
          if (b.kind === 'item' && b.item.kind === 'element' && unseen(b.item.el)) this.element(b.item.el);
        }
        i += span - 1;
        continue;
      }
      this.element(block.item.el);
    }
  }

  /**
   * Consecutive visible controls of one role (and `~`) outside containers, with nothing between
   * them but hidden controls (a closed panel's, only counted), none a list or an opener of its
   * own: on one line, as a list's items are (`e1 tab~ "Description" [selected] · e2 "Specs" · e3
   * "Reviews"`), up to INLINE_LIST_CHARS. `span`: the blocks they take, hidden ones between included.
   */
  private sameRoleFrom(grouped: Block[], start: number): { siblings: SnapshotElement[]; span: number } {
    const siblings: SnapshotElement[] = [];
    let span = 0;
    let role: string | undefined;
    let chars = 0;
    for (let i = start; i < grouped.length; i++) {
      const b = grouped[i]!;
      if (b.kind !== 'item' || b.item.kind !== 'element') break;
      const el = b.item.el;
      if (unseen(el) && siblings.length > 0 && !this.popupsOf.has(el.ref)) continue;
      if (el.passive || el.visibility !== 'visible' || this.printed.has(el.ref) || this.popupsOf.has(el.ref) || this.groups.has(el.ref)) break;
      const own = `${el.role}${el.inferred ? '~' : ''}`;
      if (role !== undefined && own !== role) break;
      role = own;
      chars += el.name.length + 12;
      if (siblings.length > 0 && chars > INLINE_LIST_CHARS) break;
      siblings.push(el);
      span = i - start + 1;
    }
    return { siblings, span };
  }

  /** Consecutive uncontained visible elements of one role whose names differ only in numbers (and SVG shapes that look alike). */
  private runFrom(grouped: Block[], start: number): SnapshotElement[] {
    const first = grouped[start]!;
    if (first.kind !== 'item' || first.item.kind !== 'element' || first.item.el.passive) return [];
    const shape = lookOf(first.item.el);
    const run: SnapshotElement[] = [];
    for (let i = start; i < grouped.length; i++) {
      const b = grouped[i]!;
      if (b.kind !== 'item' || b.item.kind !== 'element' || b.item.el.passive) break;
      if (lookOf(b.item.el) !== shape || this.popupsOf.has(b.item.el.ref)) break;
      run.push(b.item.el);
    }
    return run;
  }

  private element(el: SnapshotElement): void {
    // Already said as the title of its own list (a popup shown under its opener).
    if (this.printed.has(el.ref)) return;
    // Not usable now and nothing a person sees: counted, and found by query.
    if (unseen(el)) {
      this.hiddenCount++;
      return;
    }
    if (el.passive) {
      if (this.notVisibleRun.length > 0) this.flushRuns();
      this.passiveRun.push(el);
      this.printed.add(el.ref);
      return;
    }
    if (el.visibility !== 'visible') {
      if (this.inlineHidden >= this.level.inlineHidden) {
        this.overflow.set(el.visibility, (this.overflow.get(el.visibility) ?? 0) + 1);
        return;
      }
      this.inlineHidden++;
      if (this.passiveRun.length > 0 || (this.notVisibleRun[0] && whyNotVisible(this.notVisibleRun[0], false) !== whyNotVisible(el, false))) this.flushRuns();
      this.notVisibleRun.push(el);
      this.printed.add(el.ref);
      return;
    }
    this.flushRuns();
    const own = this.groups.get(el.ref);
    // A control that is its own list (a listbox, a tree): its line is the list's title.
    if (own && !this.popupsShown.has(el.ref) && !this.openerOf.has(el.ref)) this.container(own);
    else this.lines.push(elementLine(el, this.s.url, this.level.line, this.lineOptions(el)));
    this.printed.add(el.ref);
    this.popupsAfter(el.ref, true);
  }

  /** The popups `ref` opened, right under it (`underLine`: under its own line, which says which control opened them). */
  private popupsAfter(ref: string, underLine = false): void {
    for (const popup of this.popupsOf.get(ref) ?? []) {
      if (this.popupsShown.has(popup)) continue;
      this.container(this.groups.get(popup)!, ref, underLine);
    }
  }

  /**
   * Consecutive elements that are not usable now, on one line that says why once (`covered by
   * dialog "Cookies" e8: e4 … · e5 …`), and consecutive passive shapes (`shapes: e9 circle red large · …`).
   */
  private flushRuns(): void {
    const run = this.notVisibleRun.splice(0);
    const opts = (e: SnapshotElement, showVisibility: boolean) => ({ ...this.lineOptions(e), showVisibility });
    if (run.length === 1) this.lines.push(elementLine(run[0]!, this.s.url, this.level.line, opts(run[0]!, true)));
    if (run.length > 1)
      this.lines.push(
        `${whyNotVisible(run[0]!, this.lineOptions(run[0]!).coverByRef === true)}: ${joinedElements(run, (e, showRole) => elementLine(e, this.s.url, this.level.line, { ...opts(e, false), showRole }))}`,
      );
    for (const e of run) this.popupsAfter(e.ref);
    const shapes = this.passiveRun.splice(0);
    if (shapes.length > 0) this.lines.push(`shapes: ${shapes.map((e) => elementLine(e, this.s.url, this.level.line)).join(' · ')}`);
  }

  private text(item: Extract<Item, { kind: 'text' }>): void {
    this.flushRuns();
    const t = item.text;
    const key = t.role === 'heading' || t.role === 'status' || t.role === 'alert';
    if (!key && this.textChars > this.maxChars * this.level.textShare) {
      this.textsSkipped++;
      return;
    }
    const line = textLine(t, this.level.line, t.ref !== undefined && this.pointedAt.has(t.ref));
    this.textChars += line.length;
    // Plain texts one after another share a line, as a person reads them (`"Invoice 1041 €120.00"`).
    const plain = t.role === undefined && line.startsWith('"');
    const last = this.lines.length - 1;
    if (plain && last >= 0 && this.plainTextAt === last && this.plainText.length + line.length <= MERGED_TEXT_CHARS) {
      this.plainText = `${this.plainText} ${JSON.parse(line) as string}`;
      this.lines[last] = JSON.stringify(this.plainText);
      return;
    }
    this.lines.push(line);
    this.plainTextAt = plain ? this.lines.length - 1 : -1;
    this.plainText = plain ? (JSON.parse(line) as string) : '';
  }

  /** The line that holds plain texts only (the last one, or -1), and what it says. */
  private plainTextAt = -1;
  private plainText = '';

  /**
   * A container in place, or under the control that opened it (`opener`): `↳ listbox: …`
   * right under that control's line, `↳ listbox (from e12): …` anywhere else (after a row
   * or a run of controls, or at the end when the control is not shown). Its ref is shown only
   * when rows are left out (expand pages through them); a container that is a control itself
   * (a listbox, a suggestion list with a click handler) is titled by that control's line
   * (`e1 listbox "Size" [focused]: e2 option …`), which is then not repeated.
   */
  private container(g: ContainerGroup, opener?: string, underOpener = false): void {
    this.popupsShown.add(g.ref);
    const meta = this.containers.get(g.ref);
    const role = meta?.role ?? 'list';
    const rows = [...g.rows];
    const header = rows.filter(([n]) => n === 0);
    const body = rows.filter(([n]) => n > 0);
    const total = meta?.rows ?? body.length;
    const indent = opener ? '  ' : '';
    const d = this.level.line;
    const collapse = body.length > this.level.smallContainer;
    const shown = collapse ? body.slice(0, this.level.exampleRows) : body;
    const self = this.elementByRef.get(g.ref);
    const titledBySelf = self !== undefined && !unseen(self) && !this.printed.has(self.ref);
    let title = opener ? '↳ ' : '';
    if (titledBySelf) {
      title += elementLine(self, this.s.url, d, this.lineOptions(self));
      this.printed.add(self.ref);
    } else {
      title += `${word(role, 40)}${collapse ? ` ${g.ref}` : ''}`;
      if (meta?.name) title += ` ${quote(meta.name, 80)}`;
    }
    if (opener && !underOpener) title += ` (from ${opener})`;
    // The container's own title among its texts (a dialog's heading is its name): its title line says it.
    const named = words(meta?.name ?? '');
    const own = (items: Item[]) => (named.length === 0 ? items : items.filter((i) => i.kind !== 'text' || !sameWords(words(i.text.text), named)));
    const line = (items: Item[], carry?: LineCarry) => rowLine(own(items), this.s.url, d, this.lineOptions, carry, this.controlNames);
    for (const [, items] of rows) for (const i of items) if (i.kind === 'element') this.printed.add(i.el.ref);
    // Hidden controls (a closed submenu's items, a collapsed branch's nodes, a closed date picker's days) are counted, as outside lists: nothing to act on yet.
    const visible = (at: Array<[number, Item[]]>) => at.map(([n, items]): [number, Item[]] => [n, items.filter((i) => i.kind !== 'element' || !unseen(i.el))]);
    for (const [, items] of [...header, ...shown]) for (const i of items) if (i.kind === 'element' && unseen(i.el)) this.hiddenCount++;
    if (TABULAR.has(role) || meta?.columns?.length) {
      // Header texts are the columns already listed; only its controls (select all, sort) are new.
      const headerLines = visible(header).flatMap(([, items]) => {
        const cells = meta?.columns?.length ? items.filter((i) => i.kind === 'element') : items;
        return cells.length > 0 ? [`${indent}header: ${line(cells)}`] : [];
      });
      // Rows are numbered only when some are left out (expand pages by row).
      const rowLines = visible(shown).flatMap(([n, items]) => {
        const text = line(items);
        return text ? [`${indent}${collapse ? `row ${n}:` : '-'} ${text}`] : [];
      });
      if (collapse) title += ` — ${total} rows`;
      if (meta?.columns?.length) title += `${collapse ? ';' : ' —'} columns: ${meta.columns.map((c) => quote(c, 30)).join(' | ')}`;
      // Else everything in it is hidden: no line at all (its controls are in the hidden count).
      if (headerLines.length > 0 || rowLines.length > 0 || collapse || titledBySelf) this.lines.push(title, ...headerLines, ...rowLines);
    } else {
      const listed = visible([...header, ...shown]);
      // On one line the rows share it, so a role said once carries over; on lines of their own each says its own.
      const carry: LineCarry = {};
      const texts = listed.map(([, items]) => line(items, carry)).filter(Boolean);
      if (collapse) title += ` — ${total} rows`;
      const inline = `${title}: ${texts.join(' · ')}`;
      if (texts.length > 0 && inline.length <= INLINE_LIST_CHARS + title.length) this.lines.push(inline);
      else if (texts.length > 0 || collapse) {
        this.lines.push(title);
        for (const t of listed.map(([, items]) => line(items)).filter(Boolean)) this.lines.push(`${indent}- ${t}`);
      }
      // Else everything in it is hidden: no line at all (its controls are in the hidden count).
    }
    if (collapse) this.lines.push(`${indent}${restLine(g.ref, body, shown.length)}`);
    for (const [, items] of rows) for (const i of items) if (i.kind === 'element') this.popupsAfter(i.el.ref);
  }

  private trailer(): void {
    const s = this.s;
    if (this.textsSkipped > 0) this.lines.push(`… ${this.textsSkipped} more text blocks not shown: query({text}) searches them.`);
    const notShown = [...(this.hiddenCount > 0 ? [`${this.hiddenCount} hidden`] : []), ...[...this.overflow].map(([v, n]) => `${n} ${v.replace('_', ' ')}`)];
    const unlisted = this.hiddenCount + [...this.overflow.values()].reduce((a, b) => a + b, 0);
    // Hidden controls are never listed: `3 hidden controls` says it; a count of others that did not fit says `not listed`.
    if (notShown.length > 0) this.lines.push(`${notShown.join(', ')} ${unlisted === 1 ? 'control' : 'controls'}${this.overflow.size > 0 ? ' not listed' : ''}`);
    if (s.canvases.length > 0) this.lines.push(canvasLine(s.canvases));
    // Structured data the facts were read from is in them, with its provenance.
    const fused = (this.extras.facts ?? []).some((f) => f.sources.includes('structured_data'));
    const structured = fused ? [] : s.structuredData.slice(0, this.level.maxStructured);
    for (const item of structured) this.lines.push(`Data: ${structuredLine(item, 240, s.url)}`);
    if (!fused && s.structuredData.length > structured.length) this.lines.push(`Data: … ${s.structuredData.length - structured.length} more items`);
    // Fusion lists the page's blind spots among the conflicts, which the state line shows.
    const said = new Set([...(this.extras.observed?.conflicts ?? []), ...SAID_BY_CANVAS]);
    const spots = s.blindSpots.filter((b) => !said.has(b));
    if (spots.length > 0) this.lines.push(`Blind spots: ${spots.map((b) => word(b)).join(', ')}`);
  }
}

/** `… 12 more rows (4–15) with 24 controls (e30 … e77), 1 not visible; rows look like: …. expand(…) lists them; query() searches them.` */
function restLine(ref: string, body: Array<[number, Item[]]>, shownCount: number): string {
  const rest = body.slice(shownCount);
  const restElements = rest.flatMap(([, items]) => items.filter((i): i is Extract<Item, { kind: 'element' }> => i.kind === 'element').map((i) => i.el));
  const notVisible = restElements.filter((e) => e.visibility !== 'visible').length;
  const shape = rowShape(body[0]![1]);
  let line = `… ${rest.length} more rows (${rest[0]![0]}–${rest[rest.length - 1]![0]})`;
  if (restElements.length > 0) line += ` with ${restElements.length} controls (${restElements[0]!.ref} … ${restElements[restElements.length - 1]!.ref})`;
  if (notVisible > 0) line += `, ${notVisible} not visible`;
  if (shape) line += `; rows look like: ${shape}`;
  return `${line}. expand(${JSON.stringify(ref)}, {offset: ${shownCount}}) lists them; query() searches them.`;
}

/**
 * A control a person does not see at all: hidden, or of zero size with a role Steward only
 * inferred (a focus trap's sentinel: nothing to see or click). Never listed; counted as hidden.
 */
function unseen(e: SnapshotElement): boolean {
  return e.visibility === 'hidden' || (e.visibility === 'zero_size' && e.inferred !== undefined);
}

/** Why a control is not usable now, as a run of them says it once: `offscreen`, `covered by dialog "Cookies" e8` (`byRef`: `covered by dialog e8`, its own line names it). */
function whyNotVisible(e: SnapshotElement, byRef: boolean): string {
  return e.visibility === 'covered' && e.coveredBy ? coveredWords(e.coveredBy, byRef) : e.visibility.replace('_', ' ');
}

/**
 * The facts worth a line: what the state line does not give already, and not a mere reading of
 * the page's visible text (DOM, accessibility, text or URL alone, undisputed: the agent reads
 * that text itself). Facts another source backs, or that a source disputes, stay.
 */
function shownFacts(extras: RenderExtras): Fact[] {
  const o = extras.observed;
  return (extras.facts ?? []).filter((f) => !(o && saidByState(f, o)) && (f.disagreements?.length || f.sources.some((src) => !PAGE_READING.has(src))));
}
const PAGE_READING = new Set(['dom', 'accessibility', 'text', 'url']);

/**
 * A fact the state line already gives (the resource and the state), with no source disagreeing:
 * the state line carries its provenance (source, confidence).
 */
function saidByState(f: Fact, o: ObservedSummary): boolean {
  if (f.disagreements?.length) return false;
  if (f.name === 'resource_type') return f.value === o.resource?.type;
  if (f.name === 'resource_id') return f.value === o.resource?.id;
  if (f.name === 'state') return f.value === o.state;
  return false;
}

const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((x, k) => x === b[k]);

/** Controls looked at after a text for the names it may repeat. */
const ECHO_LOOKAHEAD = 8;

/**
 * A text an agent learns nothing from: one the page keeps changing by itself (a clock) and the
 * short label right before it; punctuation alone (a breadcrumb's `›`); or the names of the
 * controls right after it, one after another (a label, a link's own words, "Send reply Close
 * case" above those two buttons): their lines say it.
 */
function saysNothing(item: Extract<Item, { kind: 'text' }>, grouped: Block[], at: number, containers: ReadonlyMap<string, SnapshotContainer>): boolean {
  const t = item.text;
  if (t.volatile) return true;
  const w = words(t.text);
  if (w.length === 0) return true;
  // The name or value of the control right before it (a region's heading, a slider's shown value), or the name of the table or list right after it (its caption): that line says it.
  const before = grouped[at - 1];
  if (before?.kind === 'item' && before.item.kind === 'element' && (sameWords(words(before.item.el.name), w) || before.item.el.value?.trim() === t.text.trim())) return true;
  const after = grouped[at + 1];
  if (after?.kind === 'container' && sameWords(words(containers.get(after.group.ref)?.name ?? ''), w)) return true;
  // A heading that is the name of the control right after it (an accordion's header, a button inside its heading): that line says it.
  if (after?.kind === 'item' && after.item.kind === 'element' && !after.item.el.passive && sameWords(words(after.item.el.name), w)) return true;
  if (t.role === 'heading') return false;
  const next = grouped[at + 1];
  if (next?.kind === 'item' && next.item.kind === 'text' && next.item.text.volatile && w.length <= 3) return true;
  const names: string[][] = [];
  for (let i = at + 1; i < grouped.length && names.length < ECHO_LOOKAHEAD; i++) {
    const b = grouped[i]!;
    if (b.kind !== 'item' || b.item.kind !== 'element') break;
    names.push(words(b.item.el.name));
  }
  // Only whole names from the first control on: "Cancel" above a "Cancel order" button stays.
  for (let n = 1; n <= names.length; n++) {
    const run = names.slice(0, n).flat();
    if (run.length === w.length && run.every((x, k) => x === w[k])) return true;
  }
  return false;
}
