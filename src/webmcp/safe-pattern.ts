/**
 * Judges a page's regular expression before anything runs it (security invariant 7). A JSON Schema
 * `pattern` is run by @cfworker/json-schema with JavaScript's backtracking engine, on the service
 * worker's only thread: `^(a+)+$` against 30 characters takes seconds. Pure; no regex is executed.
 *
 * Refused: longer than MAX_PATTERN_CHARS; not a valid `u`-mode pattern; backreferences; lookarounds
 * that repeat anything; a repeated part that can match the same text in more than one way (nested
 * quantifiers `(a+)+`, `(.*a){20}`, overlapping alternatives `(a|aa)+`, `(a?){30}`: exponential);
 * and chains of overlapping unbounded loops whose cost grows faster than the square of the input.
 * Accepted patterns report `exponent`: the worst-case work is about (input length)^exponent.
 */

const MAX_PATTERN_CHARS = 256;
/** Worst-case growth Steward accepts: n² (e.g. an unanchored `[a-z]+x`). */
const MAX_PATTERN_EXPONENT = 2;
/** A bounded repetition may multiply the ways to match up to this many before it counts as exponential. */
const MAX_BOUNDED_WAYS = 1_000;

export type PatternVerdict = { ok: true; exponent: number } | { ok: false; reason: string };

type Range = readonly [number, number];
type CharSet = readonly Range[];

type Node =
  | { t: 'empty' }
  | { t: 'assert'; start?: boolean }
  | { t: 'set'; set: CharSet }
  | { t: 'backref' }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; branches: Node[] }
  | { t: 'look'; body: Node }
  | { t: 'rep'; body: Node; min: number; max: number };

const MAX_CP = 0x10ffff;
const ALL: CharSet = [[0, MAX_CP]];
const DIGIT: CharSet = [[48, 57]];
const WORD: CharSet = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: CharSet = [
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function normalizeSet(ranges: Range[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalizeSet([...set])) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

const union = (a: CharSet, b: CharSet): CharSet => normalizeSet([...a, ...b]);
const overlaps = (a: CharSet, b: CharSet): boolean => a.some(([l1, h1]) => b.some(([l2, h2]) => l1 <= h2 && l2 <= h1));
const single = (cp: number): CharSet => [[cp, cp]];

class Unsupported extends Error {}

/** A recursive-descent reader for a pattern that `new RegExp(p, 'u')` already accepted. */
class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new Unsupported(`unexpected "${this.src[this.i]}"`);
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): Node {
    const branches = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? branches[0]! : { t: 'alt', branches };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified(this.atom()));
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === '?') this.i++; // lazy: same worst case
    return { t: 'rep', body: atom, min, max };
  }

  private atom(): Node {
    const c = this.src[this.i++]!;
    switch (c) {
      case '^':
        return { t: 'assert', start: true };
      case '$':
        return { t: 'assert' };
      case '.':
        return { t: 'set', set: ALL };
      case '[':
        return { t: 'set', set: this.charClass() };
      case '(':
        return this.group();
      case '\\':
        return this.escape(false);
      default: {
        const cp = this.src.codePointAt(this.i - 1)!;
        if (cp > 0xffff) this.i++;
        return { t: 'set', set: single(cp) };
      }
    }
  }

  private group(): Node {
    let look = false;
    if (this.src.startsWith('?=', this.i) || this.src.startsWith('?!', this.i)) [look, this.i] = [true, this.i + 2];
    else if (this.src.startsWith('?<=', this.i) || this.src.startsWith('?<!', this.i)) [look, this.i] = [true, this.i + 3];
    else if (this.src.startsWith('?<', this.i)) this.i = this.src.indexOf('>', this.i) + 1;
    else if (this.peek() === '?') {
      // (?:…) and modifier groups such as (?i:…)
      const colon = this.src.indexOf(':', this.i);
      if (colon < 0) throw new Unsupported('unknown group');
      this.i = colon + 1;
    }
    const body = this.alternation();
    if (this.src[this.i++] !== ')') throw new Unsupported('unclosed group');
    return look ? { t: 'look', body } : body;
  }

  /** One escape, as an atom or (inClass) as a class member. */
  private escape(inClass: boolean): Node {
    const c = this.src[this.i++]!;
    const set = (s: CharSet): Node => ({ t: 'set', set: s });
    switch (c) {
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(complement(DIGIT));
      case 'w':
        return set(WORD);
      case 'W':
        return set(complement(WORD));
      case 's':
        return set(SPACE);
      case 'S':
        return set(complement(SPACE));
      case 'b':
        return inClass ? set(single(8)) : { t: 'assert' };
      case 'B':
        return { t: 'assert' };
      case 'k':
        this.i = this.src.indexOf('>', this.i) + 1;
        return { t: 'backref' };
      case 'p':
      case 'P':
        // A Unicode property: which characters it holds is not worth modelling; assume any.
        this.i = this.src.indexOf('}', this.i) + 1;
        return set(ALL);
      case 't':
        return set(single(9));
      case 'n':
        return set(single(10));
      case 'v':
        return set(single(11));
      case 'f':
        return set(single(12));
      case 'r':
        return set(single(13));
      case 'c':
        return set(single(this.src.charCodeAt(this.i++) % 32));
      case 'x': {
        const cp = parseInt(this.src.slice(this.i, this.i + 2), 16);
        this.i += 2;
        return set(single(cp));
      }
      case 'u': {
        if (this.peek() === '{') {
          const end = this.src.indexOf('}', this.i);
          const cp = parseInt(this.src.slice(this.i + 1, end), 16);
          this.i = end + 1;
          return set(single(cp));
        }
        const cp = parseInt(this.src.slice(this.i, this.i + 4), 16);
        this.i += 4;
        return set(single(cp));
      }
      default:
        if (/[1-9]/.test(c)) {
          while (/\d/.test(this.peek() ?? '')) this.i++;
          return { t: 'backref' };
        }
        if (c === '0') return set(single(0));
        return set(single(c.codePointAt(0)!));
    }
  }

  private charClass(): CharSet {
    const negate = this.peek() === '^';
    if (negate) this.i++;
    const ranges: Range[] = [];
    const member = (): CharSet => {
      if (this.peek() === '\\') {
        this.i++;
        const node = this.escape(true);
        return node.t === 'set' ? node.set : ALL;
      }
      const cp = this.src.codePointAt(this.i)!;
      this.i += cp > 0xffff ? 2 : 1;
      return single(cp);
    };
    while (this.i < this.src.length && this.peek() !== ']') {
      const from = member();
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && from.length === 1 && from[0]![0] === from[0]![1]) {
        this.i++;
        const to = member();
        ranges.push([from[0]![0], to[to.length - 1]![1]]);
      } else ranges.push(...from);
    }
    this.i++; // ]
    const set = normalizeSet(ranges);
    return negate ? complement(set) : set;
  }
}

const nullable = (n: Node): boolean => {
  switch (n.t) {
    case 'set':
      return false;
    case 'seq':
      return n.items.every(nullable);
    case 'alt':
      return n.branches.some(nullable);
    case 'rep':
      return n.min === 0 || nullable(n.body);
    default:
      return true;
  }
};

/** The characters a match of `n` can start with. */
function first(n: Node): CharSet {
  switch (n.t) {
    case 'set':
      return n.set;
    case 'seq': {
      let out: CharSet = [];
      for (const item of n.items) {
        out = union(out, first(item));
        if (!nullable(item)) break;
      }
      return out;
    }
    case 'alt':
      return n.branches.reduce<CharSet>((acc, b) => union(acc, first(b)), []);
    case 'rep':
      return first(n.body);
    default:
      return [];
  }
}

/** Every character some part of `n` can consume. */
function chars(n: Node): CharSet {
  switch (n.t) {
    case 'set':
      return n.set;
    case 'seq':
      return n.items.reduce<CharSet>((acc, i) => union(acc, chars(i)), []);
    case 'alt':
      return n.branches.reduce<CharSet>((acc, b) => union(acc, chars(b)), []);
    case 'rep':
    case 'look':
      return chars(n.body);
    default:
      return [];
  }
}

/**
 * In how many ways `n` can match the same text, as a bound (Infinity when unbounded). Disjoint
 * alternatives are one way (the next character decides); overlapping ones add up.
 */
function ways(n: Node): number {
  switch (n.t) {
    case 'seq':
      return n.items.reduce((acc, i) => acc * ways(i), 1);
    case 'alt': {
      const firsts = n.branches.map(first);
      const disjoint = !n.branches.some(nullable) && firsts.every((f, i) => firsts.every((g, j) => i === j || !overlaps(f, g)));
      const each = n.branches.map(ways);
      return disjoint ? Math.max(...each) : each.reduce((a, b) => a + b, 0);
    }
    case 'rep': {
      const inner = ways(n.body);
      if (n.max === Infinity) return n.min === n.max ? inner : Infinity;
      const choices = n.max - n.min + 1;
      return Math.min(Infinity, choices * Math.pow(inner, n.max));
    }
    case 'look':
      return ways(n.body);
    default:
      return 1;
  }
}

/** Repetitions whose body can match one text in several ways: exponential backtracking. */
function findAmbiguousRepeat(n: Node): string | undefined {
  switch (n.t) {
    case 'seq':
      return firstOf(n.items, findAmbiguousRepeat);
    case 'alt':
      return firstOf(n.branches, findAmbiguousRepeat);
    case 'look':
      return findAmbiguousRepeat(n.body);
    case 'rep': {
      if (n.max > 1) {
        if (hasRepeatingLook(n.body)) return 'a repeated lookaround that itself repeats';
        const inner = ways(n.body);
        if (inner > 1 && (n.max === Infinity || inner === Infinity)) return 'a repeated group that can match the same text in several ways (nested quantifiers or overlapping alternatives)';
        if (inner > 1 && n.max * Math.log(inner) > Math.log(MAX_BOUNDED_WAYS)) return `a group repeated ${n.max} times whose body can match in ${inner} ways`;
        if (nullable(n.body) && hasRepeat(n.body)) return 'a repeated group whose body can match nothing';
      }
      return findAmbiguousRepeat(n.body);
    }
    default:
      return undefined;
  }
}

const firstOf = <T>(items: readonly Node[], f: (n: Node) => T | undefined): T | undefined => {
  for (const item of items) {
    const r = f(item);
    if (r !== undefined) return r;
  }
  return undefined;
};

const hasRepeat = (n: Node): boolean =>
  n.t === 'rep' ? n.max > 1 || hasRepeat(n.body) : n.t === 'seq' ? n.items.some(hasRepeat) : n.t === 'alt' ? n.branches.some(hasRepeat) : n.t === 'look' ? hasRepeat(n.body) : false;

const hasRepeatingLook = (n: Node): boolean =>
  n.t === 'look' ? hasRepeat(n.body) : n.t === 'seq' ? n.items.some(hasRepeatingLook) : n.t === 'alt' ? n.branches.some(hasRepeatingLook) : n.t === 'rep' ? hasRepeatingLook(n.body) : false;

const hasBackref = (n: Node): boolean =>
  n.t === 'backref' || (n.t === 'seq' ? n.items.some(hasBackref) : n.t === 'alt' ? n.branches.some(hasBackref) : n.t === 'rep' || n.t === 'look' ? hasBackref(n.body) : false);

/**
 * Polynomial growth: unbounded loops that follow each other over overlapping characters (with
 * nothing between them that the first cannot also consume) can split the input in n^k ways.
 */
function loopDegree(n: Node): number {
  switch (n.t) {
    case 'rep':
      return n.max === Infinity ? 1 : loopDegree(n.body);
    case 'alt':
      return Math.max(0, ...n.branches.map(loopDegree));
    case 'look':
      return loopDegree(n.body);
    case 'seq': {
      let best = 0;
      let run = { set: [] as CharSet, degree: 0 };
      for (const item of n.items) {
        const d = loopDegree(item);
        // A lookaround consumes nothing: its loops cost once per position, never chained.
        if (item.t === 'look') best = Math.max(best, d);
        else if (d > 0) {
          const set = chars(item);
          run = run.degree > 0 && overlaps(run.set, set) ? { set: union(run.set, set), degree: run.degree + d } : { set, degree: d };
          best = Math.max(best, run.degree);
        } else if (!nullable(item) && !overlaps(first(item), run.set)) run = { set: [], degree: 0 };
      }
      return best;
    }
    default:
      return 0;
  }
}

const anchoredAtStart = (n: Node): boolean =>
  n.t === 'assert' ? n.start === true : n.t === 'seq' ? n.items[0] !== undefined && anchoredAtStart(n.items[0]) : n.t === 'alt' ? n.branches.every(anchoredAtStart) : false;

export function judgePattern(source: string): PatternVerdict {
  if (source.length > MAX_PATTERN_CHARS) return { ok: false, reason: `pattern is ${source.length} characters (limit ${MAX_PATTERN_CHARS})` };
  try {
    new RegExp(source, 'u');
  } catch {
    return { ok: false, reason: `pattern ${JSON.stringify(source)} is not a valid regular expression` };
  }
  let tree: Node;
  try {
    tree = new Parser(source).parse();
  } catch (error) {
    return { ok: false, reason: `pattern ${JSON.stringify(source)} cannot be analysed (${error instanceof Error ? error.message : String(error)})` };
  }
  const refuse = (why: string): PatternVerdict => ({ ok: false, reason: `pattern ${JSON.stringify(source)} could take exponential time: ${why}` });
  if (hasBackref(tree)) return refuse('backreferences are not accepted');
  const ambiguous = findAmbiguousRepeat(tree);
  if (ambiguous) return refuse(ambiguous);
  // Validation searches (RegExp.test), so an unanchored pattern is retried at every position.
  const exponent = loopDegree(tree) + (anchoredAtStart(tree) ? 0 : 1);
  if (exponent > MAX_PATTERN_EXPONENT) {
    return { ok: false, reason: `pattern ${JSON.stringify(source)} could take time growing like n^${exponent}: overlapping unbounded repetitions follow each other` };
  }
  return { ok: true, exponent: Math.max(exponent, 1) };
}
