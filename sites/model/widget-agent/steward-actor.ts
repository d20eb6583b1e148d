import type { ActResult, Actor, Hit, ResolvedStep } from './episode.ts';
import { parseStewardLook, type StewardLook } from './steward-text.ts';
import type { View } from './view.ts';

/**
 * The widget agent's hands on Steward, as any MCP client has them: it reads only the text of
 * steward_observe and acts only through steward_execute with the refs that text gave (DOM steps,
 * README "MCP bridge"). When Steward holds a step for the person (APPROVAL_REQUIRED) the person
 * who asked for the task decides — `approve` plays them — and the same call with the same
 * idempotency key then returns the result.
 */

export interface ToolCaller {
  call(tool: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; structured?: Record<string, unknown> | undefined }>;
}

export interface StewardActorOptions {
  client: ToolCaller;
  tabId: number;
  /** Prefix of this episode's idempotency keys (unique per run). */
  keyPrefix: string;
  /** The person approves the pending card for this action in the side panel. */
  approve: (action: string) => Promise<void>;
  /** Longest wait for an approved step's result. */
  resultTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const DOM_ACTION: Readonly<Record<ResolvedStep['do'], string>> = {
  click: 'dom.click',
  type: 'dom.type',
  select: 'dom.select',
  press: 'dom.press',
  hover: 'dom.hover',
  drag: 'dom.drag',
  check: 'dom.check',
  upload: 'dom.upload',
};

/** Why a found node cannot be acted on through Steward: it has no ref. */
function noRef(hit: Hit, said: string): string {
  const n = hit.node;
  const shown = n.role === 'text' || n.role === 'heading' ? `as ${n.role === 'heading' ? 'a heading' : 'text'} ${JSON.stringify(n.name)}` : `as ${n.role} ${JSON.stringify(n.name)}`;
  return `no ref for ${said}: the look shows it only ${shown}`;
}

/** The DOM step for a resolved step, with the refs the look gave, or why there is none (any Steward client: MCP or the co-pilot's model). */
export function domRequest(step: ResolvedStep): { action: string; input: Record<string, unknown> } | string {
  const input = inputFor(step);
  return typeof input === 'string' ? input : { action: DOM_ACTION[step.do], input };
}

function inputFor(step: ResolvedStep): Record<string, unknown> | string {
  if (step.do === 'press') {
    if (!step.hit) return { key: step.key };
    return step.hit.node.ref ? { key: step.key, ref: step.hit.node.ref } : noRef(step.hit, step.said ?? 'the target');
  }
  const ref = step.hit.node.ref;
  if (!ref) return noRef(step.hit, step.said);
  switch (step.do) {
    case 'type':
      return { ref, text: step.text, clear: true };
    case 'select':
      return { ref, values: step.values };
    case 'check':
      return { ref, checked: step.checked };
    case 'drag': {
      const to = step.onto.node.ref;
      if (!to) return `drop target: ${noRef(step.onto, step.ontoSaid)}`;
      return { ref, to, ...(step.at === 'top' ? { at: 'before' } : {}) };
    }
    default:
      return { ref };
  }
}

/** Longest wait for the rate limit to free a call (Steward's per-minute window). */
const MAX_QUOTA_WAIT_MS = 60_000;

export class StewardActor implements Actor {
  /** Cards the person approved in this episode. */
  approvals = 0;
  private last: StewardLook | undefined;
  private keys = 0;

  constructor(private readonly o: StewardActorOptions) {}

  private primed: string | undefined;

  async look(): Promise<{ text: string; view: View }> {
    const text = this.primed ?? (await this.observe());
    this.primed = undefined;
    this.last = parseStewardLook(text);
    return { text, view: this.last.view };
  }

  /**
   * Observes until Steward shows the freshly opened page's lines (a tab still loading shows none),
   * and keeps that look as the episode's first, so no look is made twice.
   */
  async ready(attempts = 50, pauseMs = 100): Promise<boolean> {
    const sleep = this.o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let i = 0; i < attempts; i++) {
      const text = await this.observe().catch(() => undefined);
      if (text !== undefined && parseStewardLook(text).view.nodes.length > 0) {
        this.primed = text;
        return true;
      }
      await sleep(pauseMs);
    }
    return false;
  }

  private async observe(): Promise<string> {
    const reply = await this.o.client.call('steward_observe', { tab_id: this.o.tabId });
    if (reply.isError) throw new Error(`steward_observe failed: ${reply.text.split('\n')[0]}`);
    return reply.text;
  }

  async act(step: ResolvedStep): Promise<ActResult> {
    const request = domRequest(step);
    if (typeof request === 'string') return { ok: false, reason: request };
    // A look that names no resource shows a page that is its own: Steward acts on what the last look showed.
    const resource = this.last?.resource;
    return this.execute(request.action, { ...(resource ? { resource } : {}), input: request.input });
  }

  private async execute(action: string, body: { resource?: { type: string; id: string }; input: Record<string, unknown> }): Promise<ActResult> {
    const sleep = this.o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const request = { tab_id: this.o.tabId, action, ...body, idempotency_key: `${this.o.keyPrefix}-${++this.keys}` };
    const deadline = Date.now() + (this.o.resultTimeoutMs ?? 20_000);
    let approved = false;
    for (;;) {
      const reply = await this.o.client.call('steward_execute', request);
      const structured = reply.structured as { error?: { code?: string; retry_after_ms?: number }; execution?: { status?: string } } | undefined;
      const code = structured?.error?.code;
      // The agent's rate limit: a well-behaved client waits as long as Steward says, then asks again with the same key.
      const retryAfter = structured?.error?.retry_after_ms;
      if (code === 'QUOTA_EXCEEDED' && retryAfter !== undefined && retryAfter <= MAX_QUOTA_WAIT_MS) {
        await sleep(retryAfter);
        continue;
      }
      if (code === 'APPROVAL_REQUIRED' && !approved) {
        this.approvals++;
        approved = true;
        await this.o.approve(action);
        continue;
      }
      if (code === 'APPROVAL_REQUIRED' || code === 'IN_PROGRESS') {
        if (Date.now() > deadline) return { ok: false, reason: `${code}: no result ${this.o.resultTimeoutMs ?? 20_000} ms after the person approved` };
        await sleep(50);
        continue;
      }
      const status = structured?.execution?.status;
      // "Outcome unknown … check with steward_observe before trying anything else": the next look does.
      if (status === 'unknown') return { ok: true, note: 'Steward could not tell the outcome', ...(approved ? { asked: true } : {}) };
      if (reply.isError || code !== undefined || status === 'failed') return { ok: false, reason: firstWords(reply.text) };
      return approved ? { ok: true, asked: true } : { ok: true };
    }
  }
}

/** Steward's sentence about a refusal, without the action id and the frame. */
function firstWords(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.replace(/^Not done — /, '').replace(/ \(action_id [^)]*\)/, '');
}
