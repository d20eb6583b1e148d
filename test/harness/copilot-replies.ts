import type { ChatRequestBody, ScriptedReply } from '../../sites/model/scripted-server.ts';

/**
 * What a scripted model reads in Steward's prompt and how it answers, for the co-pilot's e2e tests
 * and the task benchmarks. A reply is a function of the request, so it finds refs and tools in
 * what Steward really showed the model (and can obey text a page injected), never in the test.
 */

/** The user message of a request: the goal, the history, the page and the action list. */
export function promptOf(request: ChatRequestBody): string {
  return request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

/** A data block of the prompt (page, tool descriptions, results), with its page text decoded. */
export interface DataBlock {
  kind: string;
  nonce: string;
  /** Where the block starts and ends in the prompt (tags included). */
  start: number;
  end: number;
  text: string;
}

/** Every `<data kind="…" id="nonce">…</data id="nonce">` block of a prompt. */
export function dataBlocks(prompt: string): DataBlock[] {
  const blocks: DataBlock[] = [];
  const open = /<data kind="([^"]+)" id="([^"]+)">/g;
  for (let m = open.exec(prompt); m; m = open.exec(prompt)) {
    const close = `</data id="${m[2]!}">`;
    const end = prompt.indexOf(close, open.lastIndex);
    if (end < 0) continue;
    const body = prompt.slice(open.lastIndex, end).trim();
    let text = body;
    try {
      text = JSON.parse(body) as string;
    } catch {
      // not JSON-encoded: kept as it is
    }
    blocks.push({ kind: m[1]!, nonce: m[2]!, start: m.index, end: end + close.length, text });
    open.lastIndex = end + close.length;
  }
  return blocks;
}

/** The page as Steward rendered it for the model (the decoded page block), or the whole prompt. */
export function pageText(request: ChatRequestBody): string {
  const prompt = promptOf(request);
  return dataBlocks(prompt).find((b) => b.kind === 'page')?.text ?? prompt;
}

/** The ref (`e12`) of the element the rendering shows with this accessible name (`e12 button "Cancel order" !`). */
export function refNamed(page: string, name: string): string {
  const quoted = JSON.stringify(name);
  for (const line of page.split('\n')) {
    const at = line.indexOf(quoted);
    if (at < 0) continue;
    const refs = [...line.slice(0, at).matchAll(/\b(e\d+)\b/g)];
    if (refs.length > 0) return refs.at(-1)![1]!;
  }
  throw new Error(`the rendering shows no element named ${quoted}:\n${page}`);
}

/**
 * How the action list offers `name`, as one line: `- book_appointment via webmcp, consequential,
 * needs approval` (Steward's numbered line `- tool 2: via webmcp, …` with the name the `tools` data
 * block gives tool 2), or for a DOM step the fallback line that lists it once with its input, if any.
 */
export function offeredAction(request: ChatRequestBody, name: string): string | undefined {
  const prompt = promptOf(request);
  const lines = prompt.split('\n');
  for (const entry of (dataBlocks(prompt).find((b) => b.kind === 'tools')?.text ?? '').split('\n')) {
    let tool: { tool?: number; name?: string } = {};
    try {
      tool = JSON.parse(entry) as typeof tool;
    } catch {
      continue;
    }
    if (tool.name !== name) continue;
    const numbered = lines.find((l) => l.startsWith(`- tool ${tool.tool}: `));
    if (numbered) return `- ${name} ${numbered.slice(`- tool ${tool.tool}: `.length)}`;
  }
  return lines.find((l) => l.startsWith('Fallback only when nothing above fits — DOM steps by ref:') && l.includes(` ${name}{`));
}

/** Every tool the action list offers, in its order, as `offeredAction` gives it. */
export function offeredTools(request: ChatRequestBody): string[] {
  const prompt = promptOf(request);
  const names = (dataBlocks(prompt).find((b) => b.kind === 'tools')?.text ?? '').split('\n').flatMap((entry) => {
    try {
      const name = (JSON.parse(entry) as { name?: unknown }).name;
      return typeof name === 'string' ? [name] : [];
    } catch {
      return [];
    }
  });
  return names.flatMap((n) => offeredAction(request, n) ?? []);
}

export const act = (name: string, input: Record<string, unknown>, thought: string, expect: string): string => JSON.stringify({ kind: 'act', thought, action: { name, input }, expect });
export const done = (claim: string): string => JSON.stringify({ kind: 'done', thought: 'The last action was confirmed.', claim });
export const askPerson = (question: string): string => JSON.stringify({ kind: 'ask_person', thought: 'I cannot go on alone.', question });

/** A reply built from the request; a failure to find what it needs asks the person (the run then waits on the question, which the test reports as its failure). */
export function reading(build: (request: ChatRequestBody) => string): ScriptedReply {
  return (request) => {
    try {
      return build(request);
    } catch (e) {
      return askPerson(`The scripted model could not read the prompt: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`);
    }
  };
}

/** DOM steps that type into a field named `field`, found in the page the model is shown. */
export const typeInto = (field: string, text: string): ScriptedReply =>
  reading((r) => act('dom.type', { ref: refNamed(pageText(r), field), text, clear: true }, `Type into “${field}”.`, `the field holds ${text}`));

export const selectIn = (field: string, value: string): ScriptedReply =>
  reading((r) => act('dom.select', { ref: refNamed(pageText(r), field), values: [value] }, `Choose ${value} in “${field}”.`, `${value} is selected`));

export const click = (control: string, expectAfter: string): ScriptedReply => reading((r) => act('dom.click', { ref: refNamed(pageText(r), control) }, `Press “${control}”.`, expectAfter));

/** Calls the tool in one step, provided Steward offered it in the action list. */
export const callTool = (name: string, input: Record<string, unknown>, expectAfter: string): ScriptedReply =>
  reading((r) => {
    if (!offeredAction(r, name)) throw new Error(`${name} is not in the action list`);
    return act(name, input, `The site offers ${name}, which does this in one step.`, expectAfter);
  });

/** Calls the tool in one step, provided Steward offered it on that path (`- orders.cancel via site_contract, …`). */
export const callToolVia = (name: string, via: string, input: Record<string, unknown>, expectAfter: string): ScriptedReply =>
  reading((r) => {
    const line = offeredAction(r, name);
    if (!line?.startsWith(`- ${name} via ${via},`)) throw new Error(`${name} is not offered via ${via} (${line ?? 'not listed'})`);
    return act(name, input, `The site offers ${name} via ${via}, which does this in one step.`, expectAfter);
  });
