/**
 * The demo model's policy: a few fixed rules over Steward's prompt (src/agent/prompt.ts), so a
 * person can watch the co-pilot work without a language model. It knows two goals: cancel an
 * order (a site's cancel action, or the "Cancel order" button of a plain page) and book a clinic
 * appointment (its booking tool, filled from the goal). Anything else: it says it is a demo.
 */

interface Message {
  role: string;
  content: string;
}

interface OfferedAction {
  name: string;
  via: string;
  schema: Record<string, unknown>;
}

interface PastStep {
  line: string;
  result?: string;
}

interface ReadPrompt {
  goal: string;
  actions: OfferedAction[];
  page: string;
  history: PastStep[];
  /** `order ORD-1024 · cancelled @ fp-…` */
  state: string;
}

const PREFERRED_VIA = ['site_contract', 'webmcp', 'adapter'];

/** The JSON string inside a `<data kind="…" id="…">` block, decoded. */
function dataBlock(text: string, kind: string): string {
  const m = new RegExp(`<data kind="${kind}" id="[^"]*">\\n(.*)\\n</data`).exec(text);
  if (!m) return '';
  try {
    return String(JSON.parse(m[1]!));
  } catch {
    return '';
  }
}

/**
 * The tools as the prompt lists them: Steward's numbered lines (`- tool 2: via webmcp, …`) and,
 * inside the `tools` data block, each tool's own name and input schema (one JSON object a line).
 */
function readActions(text: string): OfferedAction[] {
  const out: OfferedAction[] = [];
  const via = new Map<number, string>();
  for (const m of text.matchAll(/^- tool (\d+): via ([a-z_]+), /gm)) via.set(Number(m[1]), m[2]!);
  for (const line of dataBlock(text, 'tools').split('\n')) {
    try {
      const entry = JSON.parse(line) as { tool?: number; name?: string; input_schema?: Record<string, unknown> };
      if (typeof entry.name !== 'string' || typeof entry.tool !== 'number') continue;
      out.push({ name: entry.name, via: via.get(entry.tool) ?? 'unknown', schema: entry.input_schema ?? {} });
    } catch {
      // An unreadable line: that tool is not offered.
    }
  }
  // The DOM steps, once each on the fallback line: `dom.click{ref} dom.select{ref,values[]} …`.
  const steps = /^Fallback only when nothing above fits — DOM steps by ref: (.*)$/m.exec(text)?.[1] ?? '';
  for (const m of steps.matchAll(/\b((?:dom|nav)\.[a-z]+)\{/g)) out.push({ name: m[1]!, via: 'legacy_inference', schema: {} });
  return out;
}

function readHistory(text: string): PastStep[] {
  const section = /\nHistory:\n([\s\S]*?)\n\nCurrent state/.exec(text)?.[1] ?? '';
  const steps: PastStep[] = [];
  const lines = section.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^step \d+ /.test(line)) steps.push({ line });
    else if (line === 'result:' && steps.length > 0) {
      const block = lines.slice(i + 1, i + 4).join('\n');
      steps[steps.length - 1]!.result = dataBlock(block, 'result');
    }
  }
  return steps;
}

function readPrompt(messages: readonly Message[]): ReadPrompt | undefined {
  const user = [...messages].reverse().find((m) => m.role === 'user' && m.content.includes('Goal (from the person):'));
  if (!user) return undefined;
  const text = user.content;
  return {
    goal: /^Goal \(from the person\): (.*)$/m.exec(text)?.[1]?.trim() ?? '',
    actions: readActions(text),
    page: dataBlock(text, 'page'),
    history: readHistory(text),
    state: dataBlock(text, 'state'),
  };
}

const act = (thought: string, name: string, input: Record<string, unknown>, expect: string) => ({ kind: 'act', thought, action: { name, input }, expect });
const done = (claim: string) => ({ kind: 'done', thought: 'Steward reports the last action went through.', claim });
const ask = (question: string) => ({ kind: 'ask_person', thought: 'This is beyond what the demo model knows.', question });

/** The site's own action for `word` (contract, WebMCP, adapter first), if any. */
function siteAction(actions: readonly OfferedAction[], word: RegExp): OfferedAction | undefined {
  const matching = actions.filter((a) => word.test(a.name) && !a.name.startsWith('dom.') && !a.name.startsWith('nav.'));
  return matching.sort((a, b) => rank(a.via) - rank(b.via))[0];
}

const rank = (via: string) => (PREFERRED_VIA.includes(via) ? PREFERRED_VIA.indexOf(via) : PREFERRED_VIA.length);

/**
 * A value for each required choice of a site action (a cancel's `reason`): the option whose words
 * the goal uses most ("by mistake" → `ordered_by_mistake`), else `other`, else the first option.
 */
function choicesFrom(goal: string, schema: Record<string, unknown>): Record<string, string> {
  const props = (schema.properties ?? {}) as Record<string, { enum?: unknown[] }>;
  const required = (schema.required ?? []) as string[];
  const words = new Set(goal.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  const score = (option: string) =>
    option
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2 && words.has(w)).length;
  const input: Record<string, string> = {};
  for (const field of required) {
    const options = (props[field]?.enum ?? []).map(String);
    if (options.length === 0) continue;
    const best = [...options].sort((a, b) => score(b) - score(a))[0]!;
    input[field] = score(best) > 0 ? best : (options.find((o) => o === 'other') ?? options[0]!);
  }
  return input;
}

/** The ref of a rendered control, e.g. `e22 button "Cancel order" !` (a role Steward inferred reads `button~`). */
function controlRef(page: string, role: string, name: RegExp): { ref: string; line: string } | undefined {
  for (const line of page.split('\n')) {
    const m = new RegExp(`^\\s*-?\\s*([A-Za-z0-9][A-Za-z0-9_:-]*) ${role}~? "([^"]*)"(.*)$`).exec(line);
    if (m && name.test(m[2]!)) return { ref: m[1]!, line: m[3]! };
  }
  return undefined;
}

function succeeded(result: string | undefined): boolean {
  return !!result && /"status":"(confirmed|accepted)"/.test(result) && !/"error":/.test(result);
}

function cancel(p: ReadPrompt) {
  const id = /\b[A-Z]{2,}-\d+\b/.exec(p.goal)?.[0];
  const site = siteAction(p.actions, /cancel/i);
  if (site) return act(`The site offers ${site.name}; it cancels ${id ?? 'the order'} in one step.`, site.name, choicesFrom(p.goal, site.schema), `${id ?? 'the order'} is cancelled`);
  const button = controlRef(p.page, 'button', /^cancel (order|this order)/i);
  if (!button || !p.actions.some((a) => a.name === 'dom.click')) return ask(`I see no way to cancel ${id ?? 'it'} on this page. Open the order's page and start me again.`);
  const reason = controlRef(p.page, 'combobox', /reason/i);
  const picked = p.history.some((h) => h.line.includes('dom.select') && h.line.includes(`"${reason?.ref ?? ''}"`));
  if (reason && !/ = "/.test(reason.line) && !picked && p.actions.some((a) => a.name === 'dom.select')) {
    return act('The cancel form asks for a reason first.', 'dom.select', { ref: reason.ref, values: ['Other'] }, 'the reason is chosen');
  }
  return act(`This page has no cancel tool, so I press its "Cancel order" button.`, 'dom.click', { ref: button.ref }, `${id ?? 'the order'} is cancelled`);
}

/** A value for each field of the booking tool that the goal gives. */
function fillFrom(goal: string, schema: Record<string, unknown>): { input: Record<string, string>; missing: string[] } {
  const props = (schema.properties ?? {}) as Record<string, { enum?: unknown[]; format?: string; type?: string }>;
  const required = (schema.required ?? []) as string[];
  const input: Record<string, string> = {};
  const lower = goal.toLowerCase();
  for (const [field, p] of Object.entries(props)) {
    let value: string | undefined;
    if (Array.isArray(p.enum) && /doctor/.test(field)) {
      value = p.enum.map(String).find((v) => v.split(/[-_\s]/).some((w) => w.length > 2 && w !== 'dr' && lower.includes(w.toLowerCase())));
    } else if (p.format === 'date' || /date/.test(field)) value = /\b\d{4}-\d{2}-\d{2}\b/.exec(goal)?.[0];
    else if (/time/.test(field)) {
      const t = /\b(\d{1,2}):(\d{2})\b/.exec(goal);
      value = t ? `${t[1]!.padStart(2, '0')}:${t[2]!}` : undefined;
    } else if (/name/.test(field)) value = /\bfor ([A-Z][\w'-]+(?: [A-Z][\w'-]+)+)/.exec(goal)?.[1];
    if (value !== undefined) input[field] = value;
    else if (required.includes(field)) {
      // A doctor the goal does not name: the first one listed.
      if (Array.isArray(p.enum) && p.enum.length > 0) input[field] = String(p.enum[0]);
    }
  }
  return { input, missing: required.filter((f) => !(f in input)) };
}

function book(p: ReadPrompt) {
  const tool = siteAction(p.actions, /book/i);
  if (!tool) return ask('I see no booking tool on this page. Open the clinic and start me again.');
  const { input, missing } = fillFrom(p.goal, tool.schema);
  if (missing.length > 0) return ask(`To book, tell me the ${missing.join(', ')} in the goal (for example "book with Dr. Okafor on 2026-12-07 at 10:00 for Jordan Lee").`);
  return act(`The clinic offers ${tool.name}; I fill it from the goal.`, tool.name, input, 'the appointment is booked');
}

/** The next step, as the JSON text a model would reply with. */
export function demoReply(messages: readonly Message[]): string {
  const p = readPrompt(messages);
  if (!p) return JSON.stringify(ask('I am a demo model and could not read this prompt.'));
  const last = p.history[p.history.length - 1];
  const finalStep = last && !/ dom\.(select|scroll|type) /.test(last.line) && !/ nav\.goto /.test(last.line) && /\{.*\}$/.test(last.line);
  const cancelledNow = /\bcancel/i.test(p.goal) && /· cancel+ed @/.test(p.state);
  if (finalStep && (succeeded(last.result) || cancelledNow)) return JSON.stringify(done(`Done: ${p.goal}.`));
  if (last?.result && !succeeded(last.result) && finalStep) return JSON.stringify(ask('The last action did not go through (see its result). I am a demo model: please take over from here.'));
  if (/\bcancel/i.test(p.goal)) return JSON.stringify(cancel(p));
  if (/\b(book|appointment)/i.test(p.goal)) return JSON.stringify(book(p));
  return JSON.stringify(
    ask(
      'I am a demo model with scripted replies: I only know how to cancel an order (e.g. "cancel order ORD-1024") and book a clinic appointment. Configure a real model in Settings → Co-pilot for anything else.',
    ),
  );
}
