import { colourFamily, nameMatch, shapeKindMatches } from './names.ts';

/**
 * What the widget agent reads of a page, whichever view it came from (Steward's look or
 * Playwright's ariaSnapshot), and how it finds what a plan names in it (pure). Both views are
 * parsed into these nodes and searched by the same rules, so the only difference between two
 * episodes of one task is what each view shows.
 */

export interface ShapeSeen {
  kind: string;
  fill?: string;
  stroke?: string;
  size?: string;
}

export interface ViewNode {
  /** Document order within the view. */
  index: number;
  /** The control's role; `text` for a line of plain text (a heading keeps `heading`). */
  role: string;
  /** Its name, or for a text its words. */
  name: string;
  value?: string;
  states: string[];
  /** Something a step can be taken on (a ref in Steward's view, an interactive role in the anchor's). */
  control: boolean;
  /** Steward's element ref (Steward's view only). */
  ref?: string;
  /** Nodes with the same row share it (a table row, a list item, one line of a list). */
  row?: number;
  shape?: ShapeSeen;
  /** Why the view says it cannot be used now (`covered by dialog "Cookies" e8`, `offscreen`). */
  unusable?: string;
  /** Steward inferred its role from the page's behaviour (`~`). */
  inferred?: boolean;
  /** The anchor's nth match of its role and name in the page (for the locator). */
  nth?: number;
  /** The anchor's enclosing row node (a listitem), to scope a locator. */
  rowNode?: number;
}

export interface View {
  nodes: ViewNode[];
  /** What the view says it cannot see (`canvas e1 (pixels only, not read)`). */
  blindSpots: string[];
}

/** What a plan step acts on, as a person would say it. */
export interface Target {
  /** What it says, is called or holds ("Reports", "Lisbon, Portugal", "+"). */
  name?: string;
  /** Roles it likely has, most likely first: a preference, never a requirement. */
  roles?: readonly string[];
  /** An icon: a control without a name (then `near` says where). */
  unnamed?: boolean;
  /** In the row, or right after the text, that says this ("Invoice 1042"). */
  near?: string;
  /** A drawn shape picked by look ("the large red circle"; the size when the person says it). */
  shape?: { kind: string; color: string; size?: string };
  /** When nothing has the name: the one control of the first role, as "the slider" names it when there is one. */
  only?: boolean;
  /** How the person says it, for the failure message ("the kebab icon in the row 'Invoice 1042'"). */
  said: string;
}

export type Found = { node: ViewNode; phrase?: string; scope?: ViewNode } | { miss: string };

/** Nodes after the `near` text looked at when the view has no rows. */
const NEAR_WINDOW = 4;

const quoted = (s: string) => JSON.stringify(s);

function shapeMatches(want: NonNullable<Target['shape']>, s: ShapeSeen | undefined): boolean {
  if (!s) return false;
  return shapeKindMatches(want.kind, s.kind) && s.fill !== undefined && colourFamily(s.fill) === want.color && (want.size === undefined || s.size === want.size);
}

/** The nodes `near` points at: the row of the first node saying it, or the few nodes after it. */
function nearScope(view: View, near: string): { scope: ViewNode; nodes: ViewNode[] } | undefined {
  const ranked = view.nodes.map((n) => ({ n, m: nameMatch(near, n.name) })).filter((x) => x.m > 0);
  const best = ranked.find((x) => x.m === 2) ?? ranked[0];
  if (!best) return undefined;
  const scope = best.n;
  const inRow = scope.row === undefined ? [] : view.nodes.filter((n) => n.row === scope.row);
  const after = view.nodes.slice(scope.index + 1, scope.index + 1 + NEAR_WINDOW);
  return { scope, nodes: [...new Set([...inRow, ...after])] };
}

function describeScope(target: Target): string {
  return target.near ? ` near ${quoted(target.near)}` : '';
}

/**
 * Finds what a plan names. Candidates are ranked: a control before a text, the same name before
 * a name containing it, one the view does not say is hidden, the nearest to the `near` text, a
 * preferred role before another, then document order. Misses say what
 * the view lacked, so every failed episode has a reason one can act on.
 */
export function findTarget(view: View, target: Target): Found {
  let pool = view.nodes;
  let scope: ViewNode | undefined;
  if (target.near !== undefined) {
    const near = nearScope(view, target.near);
    if (!near) return { miss: `nothing in the view says ${quoted(target.near)} (looking for ${target.said})` };
    pool = near.nodes;
    scope = near.scope;
  }
  if (target.shape) {
    const shape = target.shape;
    const shapes = view.nodes.filter((n) => n.shape);
    const hit = shapes.find((n) => shapeMatches(shape, n.shape));
    if (hit) return { node: hit };
    const canvas = view.blindSpots.find((b) => b.startsWith('canvas'));
    const images = view.nodes.filter((n) => n.role === 'img' && n.name === '').length;
    if (shapes.length === 0) return { miss: `no shapes in the view (${target.said})${canvas ? `; it says: ${canvas}` : ''}${images ? `; it shows ${images} unnamed img, nothing inside` : ''}` };
    return {
      miss: `no ${[shape.size, shape.color, shape.kind].filter(Boolean).join(' ')} among the shapes the view lists (${shapes.map((n) => [n.shape!.kind, n.shape!.fill, n.shape!.size].filter(Boolean).join(' ')).join('; ')})`,
    };
  }
  const roleRank = (n: ViewNode) => {
    const i = target.roles?.indexOf(n.role) ?? -1;
    return i < 0 ? (target.roles?.length ?? 0) : i;
  };
  type Candidate = { node: ViewNode; tier: number };
  let candidates: Candidate[];
  if (target.unnamed) {
    candidates = pool.filter((n) => n.control && n.name.trim() === '').map((node) => ({ node, tier: 2 }));
  } else {
    const name = target.name ?? '';
    // A field is also known by what it holds ("the note that says Buy oat milk").
    candidates = pool.flatMap((node) => {
      const tier = Math.max(nameMatch(name, node.name), node.control && node.value !== undefined ? nameMatch(name, node.value) : 0);
      return tier > 0 ? [{ node, tier }] : [];
    });
  }
  // "The slider": with no control of that name, the one control of the role beats a text saying it.
  if (target.only && target.roles?.[0] && !candidates.some((c) => c.node.control)) {
    const ofRole = pool.filter((n) => n.control && n.role === target.roles![0]);
    if (ofRole.length === 1) candidates = [{ node: ofRole[0]!, tier: 0 }];
  }
  const hidden = (n: ViewNode) => Number(n.unusable?.startsWith('hidden') ?? false);
  const distance = (n: ViewNode) => (scope ? Math.abs(n.index - scope.index) : 0);
  candidates.sort(
    (a, b) =>
      Number(b.node.control) - Number(a.node.control) ||
      b.tier - a.tier ||
      hidden(a.node) - hidden(b.node) ||
      distance(a.node) - distance(b.node) ||
      roleRank(a.node) - roleRank(b.node) ||
      a.node.index - b.node.index,
  );
  const best = candidates[0];
  if (!best) {
    const what = target.unnamed
      ? `no control without a name${describeScope(target)}`
      : target.name === undefined
        ? `no ${target.roles?.[0] ?? 'control'}${describeScope(target)}`
        : `nothing named ${quoted(target.name)}${describeScope(target)}`;
    return { miss: `${what} in the view (${target.said})` };
  }
  const phrase = !target.unnamed && target.name !== undefined && best.tier === 1 ? target.name : undefined;
  return { node: best.node, ...(phrase ? { phrase } : {}), ...(scope && scope !== best.node ? { scope } : {}) };
}

/** When a repeated step may stop: the view says something, a node shows a value, or a node has a state. */
export type Until = { says: string } | { valueIn: Target; is: string } | { stateOf: Target; has: string };

export function holds(view: View, until: Until): boolean {
  if ('says' in until) return view.nodes.some((n) => nameMatch(until.says, n.name) > 0 || (n.value !== undefined && nameMatch(until.says, n.value) > 0));
  const found = findTarget(view, 'valueIn' in until ? until.valueIn : until.stateOf);
  if ('miss' in found) return false;
  if ('valueIn' in until) return found.node.value !== undefined && found.node.value.trim() === until.is;
  return found.node.states.includes(until.has);
}

export function untilWords(until: Until): string {
  if ('says' in until) return `the page says ${quoted(until.says)}`;
  if ('valueIn' in until) return `${until.valueIn.said} shows ${quoted(until.is)}`;
  return `${until.stateOf.said} is ${until.has}`;
}
