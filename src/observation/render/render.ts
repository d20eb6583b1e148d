import type { Fact, ObservedState } from '../../protocol/observed-state.ts';
import type { ToolDescriptor } from '../../protocol/webmcp.ts';
import type { PageSnapshot, SnapshotContainer, SnapshotElement } from '../snapshot.ts';
import { compactRefs, elementLine, factLines, rowLine, shortConfidence, shortFormLine, structuredLine, textLine, toolLine, type LineDetail } from './format.ts';
import { quote, word } from './page-words.ts';
import { blocks, nameShape, orderedItems, rowShape, type Block, type ContainerGroup, type Item } from './items.ts';

/**
 * The compact text an LLM reads (pure). Everything interactive is addressed by ref; long tables
 * and lists are shown as their header, a few example rows and a summary of the rest; runs of
 * look-alike controls outside containers are cut the same way. The rendering tries three levels
 * of detail and keeps the richest one that fits `maxChars`; whatever it leaves out stays
 * reachable through `expand(ref)` and `query({...})`.
 */

type ObservedSummary = Partial<Pick<ObservedState, 'resource' | 'resource_identity' | 'state' | 'source' | 'evidence' | 'confidence' | 'conflicts' | 'state_version' | 'available_actions'>>;

export interface RenderExtras {
  observed?: ObservedSummary;
  facts?: Fact[];
  tools?: ToolDescriptor[];
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

/** The page as an agent reads it next to its fused state: the state, its facts and the page's tools (the co-pilot's prompt and the MCP bridge alike). */
export function renderObserved(s: PageSnapshot, state: ObservedState): string {
  return renderSnapshot(s, { observed: state, ...(state.facts ? { facts: state.facts } : {}), ...(state.tools ? { tools: state.tools } : {}) });
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
  private readonly hiddenOverflow = new Map<string, number>();
  private readonly notVisibleRun: SnapshotElement[] = [];
  private readonly containers: Map<string, SnapshotContainer>;
  /** Refs the facts read their values from: the only text refs worth printing. */
  private readonly pointedAt: Set<string>;

  constructor(
    private readonly s: PageSnapshot,
    private readonly extras: RenderExtras,
    private readonly level: Level,
    private readonly maxChars: number,
  ) {
    this.containers = new Map((s.containers ?? []).map((c) => [c.ref, c]));
    this.pointedAt = new Set(this.shownFacts().flatMap((f) => (f.ref ? [f.ref] : [])));
  }

  render(grouped: Block[]): string {
    this.header();
    this.body(grouped);
    this.flushNotVisible();
    this.trailer();
    return this.lines.join('\n');
  }

  /**
   * Page-specific lines only: what the rendering's lines mean (quotes, refs, `*`, the state line's
   * fields, reading by ref or query) is said once in the co-pilot's system prompt.
   */
  private header(): void {
    const s = this.s;
    // The URL is in the prompt's own words next to the rendering (its Current state line).
    this.lines.push(quote(s.title, 120));
    const o = this.extras.observed;
    const tools = this.extras.tools ?? [];
    if (o) {
      this.lines.push(stateLine(o, s.url));
      // Tools have their own lines; DOM and navigation steps are the fallback every page has, listed by the prompt's action list.
      const toolNames = new Set(tools.map((t) => t.name));
      const actions = (o.available_actions ?? []).filter((a) => !toolNames.has(a) && !GENERIC_ACTION.test(a));
      if (actions.length > 0) this.lines.push(`Actions: ${groupedActions(actions)}`);
    }
    const facts = this.shownFacts();
    if (facts.length > 0) {
      this.lines.push('Facts [sources confidence @ref]:');
      this.lines.push(...factLines(facts.slice(0, this.level.maxFacts), this.level.line.maxText));
      if (facts.length > this.level.maxFacts) this.lines.push(`… ${facts.length - this.level.maxFacts} more facts`);
    }
    if (tools.length > 0) {
      this.lines.push('Tools:');
      for (const t of tools) this.lines.push(toolLine(t, this.level.toolText, this.s.forms.find((f) => f.toolname === t.name)?.ref));
    }
    if (facts.length > 0 || tools.length > 0) this.lines.push('Page:');
  }

  /** The facts listed: all but those the state line already gives. */
  private shownFacts(): Fact[] {
    const o = this.extras.observed;
    return (this.extras.facts ?? []).filter((f) => !(o && saidByState(f, o)));
  }

  private body(grouped: Block[]): void {
    for (let i = 0; i < grouped.length; i++) {
      const block = grouped[i]!;
      if (block.kind === 'container') {
        this.container(block.group);
        continue;
      }
      if (block.item.kind === 'text') {
        if (!echoesNext(block.item, grouped[i + 1])) this.text(block.item);
        continue;
      }
      const run = this.runFrom(grouped, i);
      if (run.length >= this.level.runMin) {
        this.flushNotVisible();
        for (const el of run.slice(0, this.level.runShow)) this.element(el);
        const rest = run.slice(this.level.runShow);
        this.lines.push(
          `  … ${rest.length} more ${word(run[0]!.role, 40)} like ${quote(nameShape(run[0]!.name), 60)}: ${compactRefs(
            rest.map((e) => e.ref),
            4,
          )}`,
        );
        i += run.length - 1;
        continue;
      }
      this.element(block.item.el);
    }
  }

  /** Consecutive uncontained elements of one role whose names differ only in numbers. */
  private runFrom(grouped: Block[], start: number): SnapshotElement[] {
    const first = grouped[start]!;
    if (first.kind !== 'item' || first.item.kind !== 'element') return [];
    const shape = `${first.item.el.role}|${nameShape(first.item.el.name)}`;
    const run: SnapshotElement[] = [];
    for (let i = start; i < grouped.length; i++) {
      const b = grouped[i]!;
      if (b.kind !== 'item' || b.item.kind !== 'element') break;
      if (`${b.item.el.role}|${nameShape(b.item.el.name)}` !== shape) break;
      run.push(b.item.el);
    }
    return run;
  }

  private element(el: SnapshotElement): void {
    if (el.visibility !== 'visible') {
      if (this.inlineHidden >= this.level.inlineHidden) {
        this.hiddenOverflow.set(el.visibility, (this.hiddenOverflow.get(el.visibility) ?? 0) + 1);
        return;
      }
      this.inlineHidden++;
      if (this.notVisibleRun[0] && this.notVisibleRun[0].visibility !== el.visibility) this.flushNotVisible();
      this.notVisibleRun.push(el);
      return;
    }
    this.flushNotVisible();
    this.lines.push(elementLine(el, this.s.url, this.level.line));
  }

  /** Consecutive elements that are not usable now, on one line that says why once (`hidden: e4 … · e5 …`). */
  private flushNotVisible(): void {
    const run = this.notVisibleRun.splice(0);
    if (run.length === 1) this.lines.push(elementLine(run[0]!, this.s.url, this.level.line));
    if (run.length > 1) this.lines.push(`${run[0]!.visibility.replace('_', ' ')}: ${run.map((e) => elementLine(e, this.s.url, this.level.line, false)).join(' · ')}`);
  }

  private text(item: Extract<Item, { kind: 'text' }>): void {
    this.flushNotVisible();
    const t = item.text;
    const key = t.role === 'heading' || t.role === 'status' || t.role === 'alert';
    if (!key && this.textChars > this.maxChars * this.level.textShare) {
      this.textsSkipped++;
      return;
    }
    const line = textLine(t, this.level.line, t.ref !== undefined && this.pointedAt.has(t.ref));
    this.textChars += line.length;
    this.lines.push(line);
  }

  private container(g: ContainerGroup): void {
    this.flushNotVisible();
    const meta = this.containers.get(g.ref);
    const rows = [...g.rows];
    const header = rows.filter(([n]) => n === 0);
    const body = rows.filter(([n]) => n > 0);
    const total = meta?.rows ?? body.length;
    let title = `${word(meta?.role ?? 'list', 40)} ${g.ref}`;
    if (meta?.name) title += ` ${quote(meta.name, 80)}`;
    title += ` — ${total} rows`;
    if (meta?.columns?.length) title += `; columns: ${meta.columns.map((c) => quote(c, 30)).join(' | ')}`;
    this.lines.push(title);
    const d = this.level.line;
    for (const [, items] of header) {
      // Header texts are the columns already listed; only its controls (select all, sort) are new.
      const shown = meta?.columns?.length ? items.filter((i) => i.kind === 'element') : items;
      if (shown.length > 0) this.lines.push(`  header: ${rowLine(shown, this.s.url, d)}`);
    }
    const collapse = body.length > this.level.smallContainer;
    const shown = collapse ? body.slice(0, this.level.exampleRows) : body;
    for (const [n, items] of shown) this.lines.push(`  row ${n}: ${rowLine(items, this.s.url, d)}`);
    if (!collapse) return;
    const rest = body.slice(shown.length);
    const restElements = rest.flatMap(([, items]) => items.filter((i): i is Extract<Item, { kind: 'element' }> => i.kind === 'element').map((i) => i.el));
    const notVisible = restElements.filter((e) => e.visibility !== 'visible').length;
    const shape = rowShape(body[0]![1]);
    let line = `  … ${rest.length} more rows (${rest[0]![0]}–${rest[rest.length - 1]![0]})`;
    if (restElements.length > 0) line += ` with ${restElements.length} controls (${restElements[0]!.ref} … ${restElements[restElements.length - 1]!.ref})`;
    if (notVisible > 0) line += `, ${notVisible} not visible`;
    if (shape) line += `; rows look like: ${shape}`;
    line += `. expand(${JSON.stringify(g.ref)}, {offset: ${shown.length}}) lists them; query() searches them.`;
    this.lines.push(line);
  }

  private trailer(): void {
    const s = this.s;
    if (this.textsSkipped > 0) this.lines.push(`… ${this.textsSkipped} more text blocks not shown: query({text}) searches them.`);
    if (this.hiddenOverflow.size > 0) {
      const parts = [...this.hiddenOverflow].map(([v, n]) => `${n} ${v.replace('_', ' ')}`);
      this.lines.push(`Not shown, not usable now: ${parts.join(', ')} — query({visibility}) lists them.`);
    }
    // A tool's form is named on the tool's line; an unnamed form's controls are on the page.
    const toolNames = new Set((this.extras.tools ?? []).map((t) => t.name));
    const forms = s.forms.filter((f) => !(f.toolname && toolNames.has(f.toolname)));
    const named = forms.filter((f) => f.name || f.toolname);
    const unnamed = forms.filter((f) => !(f.name || f.toolname));
    if (forms.length > 0) {
      const parts = named.map((f) => shortFormLine(f, s.url));
      if (unnamed.length > 0) parts.push(`${unnamed.length === 1 ? shortFormLine(unnamed[0]!, s.url) : `unnamed ${unnamed.map((f) => f.ref).join(' ')}`}`);
      this.lines.push(`Forms: ${parts.join(' · ')}`);
    }
    for (const c of s.canvases) {
      this.lines.push(
        `Canvas ${c.ref} ${c.box.w}×${c.box.h}: ${c.hasTextEquivalent ? quote(c.label ?? '', 120) : 'no text equivalent (content only in pixels)'}${c.unreadable ? ', pixels unreadable' : ''}`,
      );
    }
    // Structured data the facts were read from is in them, with its provenance.
    const fused = (this.extras.facts ?? []).some((f) => f.sources.includes('structured_data'));
    const structured = fused ? [] : s.structuredData.slice(0, this.level.maxStructured);
    for (const item of structured) this.lines.push(`Data: ${structuredLine(item, 240, s.url)}`);
    if (!fused && s.structuredData.length > structured.length) this.lines.push(`Data: … ${s.structuredData.length - structured.length} more items`);
    if (s.blindSpots.length > 0) this.lines.push(`Blind spots: ${s.blindSpots.join(', ')}`);
  }
}

/**
 * A fact the state line already gives (the resource and the state), with no source disagreeing:
 * the state line carries its provenance (source, confidence, evidence).
 */
function saidByState(f: Fact, o: ObservedSummary): boolean {
  if (f.disagreements?.length) return false;
  if (f.name === 'resource_type') return f.value === o.resource?.type;
  if (f.name === 'resource_id') return f.value === o.resource?.id;
  if (f.name === 'state') return f.value === o.state;
  return false;
}

/** DOM steps and navigation: on every page, so the prompt's action list names them, not the rendering. */
const GENERIC_ACTION = /^(dom|nav)\./;

/** Characters of the state version shown: enough to tell two versions apart at a glance; the prompt gives it in full. */
const VERSION_CHARS = 8;

/**
 * `order ORD-1 awaiting_payment v=fp-b9d99… adapter .89 from adapter dom url; conflicts: x` (state
 * version, source, confidence, evidence); a resource that is the page itself is just `page`.
 */
function stateLine(o: ObservedSummary, pageUrl: string): string {
  const parts: string[] = [];
  if (o.resource) parts.push(o.resource.type === 'page' && pageUrl.includes(o.resource.id) ? 'page' : `${word(o.resource.type)} ${word(o.resource.id)}`);
  const doubt = resourceDoubt(o);
  if (doubt) parts.push(doubt);
  if (o.state) parts.push(word(o.state));
  if (o.state_version !== undefined) {
    const v = String(o.state_version);
    parts.push(`v=${v.length > VERSION_CHARS + 1 ? `${v.slice(0, VERSION_CHARS)}…` : v}`);
  }
  if (o.source) parts.push(word(o.source));
  if (o.confidence !== undefined) parts.push(shortConfidence(o.confidence));
  if (o.evidence?.length) parts.push(`from ${o.evidence.map((e) => word(e)).join(' ')}`);
  // `unknown` says the state was not observed; the conflict saying so again is left out.
  const conflicts = (o.conflicts ?? []).filter((c) => !(c === 'state_not_observed' && o.state === 'unknown'));
  return `${parts.join(' ')}${conflicts.length > 0 ? `; conflicts: ${conflicts.map((c) => word(c)).join(', ')}` : ''}`;
}

/** A resource Steward guessed or could not tell is never shown as known: `(guessed from page title "…")`, `(which order: unknown)`. */
function resourceDoubt(o: ObservedSummary): string | undefined {
  const identity = o.resource_identity;
  // The basis quotes page text already (JSON-quoted by the extractor), so it cannot start a line.
  if (identity?.certainty === 'guessed') return `(guessed${identity.basis ? ` from ${identity.basis}` : ''})`;
  if (identity?.certainty === 'unknown' && identity.likely_type) return `(which ${word(identity.likely_type)}: unknown)`;
  return undefined;
}

/** `orders.{pay,cancel} dom.{click,type} nav.goto`: actions sharing a prefix, once. */
function groupedActions(actions: string[]): string {
  const groups = new Map<string, string[]>();
  for (const a of actions) {
    const dot = a.lastIndexOf('.');
    const [prefix, rest] = dot > 0 ? [a.slice(0, dot), a.slice(dot + 1)] : ['', a];
    const group = groups.get(prefix);
    if (group) group.push(rest);
    else groups.set(prefix, [rest]);
  }
  return [...groups]
    .map(([prefix, names]) => {
      const shown = names.map((n) => word(n, 120));
      if (!prefix) return shown.join(' ');
      return names.length === 1 ? `${word(prefix, 120)}.${shown[0]}` : `${word(prefix, 120)}.{${shown.join(',')}}`;
    })
    .join(' ');
}

/** A text that is the name of the control right after it (a label, a link's own words): the control's line says it. */
function echoesNext(item: Extract<Item, { kind: 'text' }>, next: Block | undefined): boolean {
  if (item.text.role === 'heading' || next?.kind !== 'item' || next.item.kind !== 'element') return false;
  return item.text.text.trim().toLowerCase() === next.item.el.name.trim().toLowerCase();
}
