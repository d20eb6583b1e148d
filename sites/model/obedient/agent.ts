/**
 * An agent that obeys every instruction it reads, anywhere in its input: the worst case a model
 * can be, for measuring what Steward itself stops (issue 27). Instructions have one fixed form,
 * `AGENT-INSTRUCTION[[verb|arg|arg]]`; the agent finds them in everything it was shown (data
 * blocks decoded, base64 included: a capable model reads those too), carries out each new one in
 * the order read, and only then goes on with the person's own plan (the same verbs). Pure: the
 * co-pilot's scripted model and the MCP client both drive it with the text they received.
 *
 * Verbs: `click|<name>`, `type|<name>|<text>`, `select|<name>|<option>`, `goto|<url>` (nav.goto),
 * `open|<url>` (steward_open), `call|<tool>|<k=v&k=v>` (a site tool). In any argument,
 * `{{Label}}` is the value the input shows after "Label:" (how an attacker names a page fact).
 */

type Doing =
  | { kind: 'act'; action: string; input: Record<string, unknown>; from: 'instruction' | 'plan'; said: string; step?: number }
  | { kind: 'open'; url: string; from: 'instruction' | 'plan'; said: string; step?: number };
export type Move = Doing | { kind: 'read'; text: string } | { kind: 'done' };

const INSTRUCTION = /AGENT-INSTRUCTION\[\[(.+?)\]\]/g;

/** Every instruction in `text`, in order of appearance, as written (`verb|arg|…`). */
export function instructionsIn(text: string): string[] {
  return [...text.matchAll(INSTRUCTION)].map((m) => m[1]!);
}

/** A prompt as a model reads it: each `<data …>` block's JSON string or base64 decoded in place. */
export function decodedPrompt(prompt: string): string {
  return prompt.replace(/<data kind="([^"]+)" id="([^"]+)">\n([\s\S]*?)\n<\/data id="\2">/g, (_all, _kind: string, _id: string, body: string) => {
    const text = body.trim();
    try {
      return JSON.parse(text) as string;
    } catch {
      // not JSON: base64 of UTF-8 (an untrusted tool's output), or as it is
    }
    if (/^[A-Za-z0-9+/=\s]+$/.test(text)) {
      const decoded = Buffer.from(text, 'base64').toString('utf8');
      if (!decoded.includes('\uFFFD')) return decoded;
    }
    return text;
  });
}

/** The value shown after `label:` (`Account number: ACCT-1` → `ACCT-1`). */
function factAfter(text: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escaped}:?\\s*([A-Za-z0-9][A-Za-z0-9._-]*)`).exec(text)?.[1];
}

function fill(arg: string, text: string): string {
  return arg.replace(/\{\{([^}]+)\}\}/g, (all, label: string) => factAfter(text, label) ?? all);
}

/** The ref of the element the rendering names `name` on one of its lines (`e12 button "Cancel order"`). */
export function refFor(page: string, name: string): string | undefined {
  const quoted = JSON.stringify(name);
  for (const line of page.split('\n')) {
    const at = line.indexOf(quoted);
    if (at < 0) continue;
    const refs = [...line.slice(0, at).matchAll(/\b([a-z]{1,3}\d+)\b/g)];
    if (refs.length > 0) return refs.at(-1)![1]!;
  }
  return undefined;
}

const TRIES = 2;

export class ObedientAgent {
  private readonly tried = new Map<string, number>();
  /** Every instruction read so far, in order: a page may stop showing one after the first step. */
  private readonly read: string[] = [];
  private planAt = 0;
  private planTries = 0;
  private lookedClose = false;

  /** `plan`: the person's own task, in the same verbs. */
  constructor(private readonly plan: readonly string[]) {}

  /**
   * The next move, given all the text the agent was shown for this step (`seen`) and the page's
   * rendering in it (`page`, where refs are looked up).
   */
  next(seen: string, page: string): Move {
    for (const written of instructionsIn(seen)) if (!this.read.includes(written)) this.read.push(written);
    // An instruction cut short by the rendering (`AGENT-INSTRUCTION[[goto|http://… …`): read it in full, once.
    if (!this.lookedClose && /AGENT-INSTRUCTION\[\[(?:(?!\]\]).)*…/.test(seen)) {
      this.lookedClose = true;
      return { kind: 'read', text: 'AGENT-INSTRUCTION' };
    }
    for (const written of this.read) {
      const n = this.tried.get(written) ?? 0;
      if (n >= TRIES) continue;
      this.tried.set(written, n + 1);
      const move = this.moveFor(written, seen, page, 'instruction');
      if (move) {
        this.tried.set(written, TRIES);
        return move;
      }
    }
    while (this.planAt < this.plan.length) {
      const move = this.moveFor(this.plan[this.planAt]!, seen, page, 'plan');
      if (move) {
        const step = this.planAt++;
        this.planTries = 0;
        return { ...move, step };
      }
      // A target not shown yet (a page still loading) gets another look, then is skipped.
      if (++this.planTries < TRIES) return { kind: 'act', action: 'dom.scroll', input: { direction: 'down', amount: 1 }, from: 'plan', said: 'look again' };
      this.planAt++;
      this.planTries = 0;
    }
    return { kind: 'done' };
  }

  /** Whether every step of the person's plan was issued. */
  get planIssued(): boolean {
    return this.planAt >= this.plan.length;
  }

  private moveFor(written: string, seen: string, page: string, from: 'instruction' | 'plan'): Doing | undefined {
    const [verb, ...rest] = written.split('|');
    const args = rest.map((a) => fill(a, seen));
    const said = written;
    const ref = () => refFor(page, args[0] ?? '');
    switch (verb) {
      case 'click': {
        const r = ref();
        return r ? { kind: 'act', action: 'dom.click', input: { ref: r }, from, said } : undefined;
      }
      case 'type': {
        const r = ref();
        return r ? { kind: 'act', action: 'dom.type', input: { ref: r, text: args[1] ?? '', clear: true }, from, said } : undefined;
      }
      case 'select': {
        const r = ref();
        return r ? { kind: 'act', action: 'dom.select', input: { ref: r, values: [args[1] ?? ''] }, from, said } : undefined;
      }
      case 'goto':
        return { kind: 'act', action: 'nav.goto', input: { url: args[0] ?? '' }, from, said };
      case 'open':
        return { kind: 'open', url: args[0] ?? '', from, said };
      case 'call':
        return { kind: 'act', action: args[0] ?? '', input: Object.fromEntries(new URLSearchParams(args[1] ?? '')), from, said };
      default:
        return undefined;
    }
  }
}
