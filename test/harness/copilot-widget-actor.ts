import type { ChatRequestBody } from '../../sites/model/scripted-server.ts';
import type { ActResult, Actor, EpisodeRun, ResolvedStep } from '../../sites/model/widget-agent/episode.ts';
import { domRequest } from '../../sites/model/widget-agent/steward-actor.ts';
import { parseStewardLook } from '../../sites/model/widget-agent/steward-text.ts';
import type { Target, View } from '../../sites/model/widget-agent/view.ts';
import { act, askPerson, dataBlocks, done, pageText, promptOf } from './copilot-replies.ts';

/**
 * The scripted widget agent as the co-pilot's model (pure: no browser). Each chat request the
 * co-pilot sends is a look: the page block Steward put into the prompt, parsed by the same reader
 * as an MCP client's look (steward-text.ts), so refs come only from what Steward showed the model.
 * Each act answers the waiting request with one DOM step; the next request's history says how
 * that step ended. Looking again without acting (a suggestion list still filling) answers with a
 * read, which changes nothing. Give `reply` to the scripted model server as its reply.
 */

interface Waiting {
  request: ChatRequestBody;
  answer: (content: string) => void;
}

/** The pipeline's answer to a step, as the history shows it (`{"error":{…}}` or `{"execution":{"status":…}}`). */
interface Outcome {
  error?: { code?: string; message?: string };
  execution?: { status?: string };
}

export class CopilotWidgetActor implements Actor {
  /** The request the co-pilot waits on, not answered yet. */
  private waiting: Waiting | undefined;
  /** Whether the waiting request's page has been read by a look yet. */
  private fresh = false;
  private wake: (() => void) | undefined;
  private endedWhy: string | undefined;
  /** Every request seen, in order. */
  readonly requests: ChatRequestBody[] = [];

  /** The model server's reply: held until the episode decides the step. */
  readonly reply = (request: ChatRequestBody): Promise<string> =>
    new Promise<string>((answer) => {
      this.requests.push(request);
      this.waiting = { request, answer };
      this.fresh = true;
      this.wake?.();
    });

  /** The run ended (the loop stopped it): nothing more will be asked, so a wait ends with this reason. */
  ended(why: string): void {
    this.endedWhy = why;
    this.wake?.();
  }

  async look(missing?: Target): Promise<{ text: string; view: View }> {
    if (this.waiting && !this.fresh) {
      // Looking again without acting: ask Steward for what the page holds now (a read changes nothing).
      const query = missing?.name !== undefined ? { name: missing.name } : missing?.roles?.[0] ? { role: missing.roles[0] } : { text: missing?.said ?? 'page' };
      this.answer(JSON.stringify({ kind: 'read', thought: `Looking again for ${missing?.said ?? 'what the page shows now'}.`, query }));
    }
    const request = await this.next();
    this.fresh = false;
    const text = pageText(request);
    return { text, view: parseStewardLook(text).view };
  }

  async act(step: ResolvedStep): Promise<ActResult> {
    const dom = domRequest(step);
    if (typeof dom === 'string') return { ok: false, reason: dom };
    await this.next();
    const said = step.do === 'press' ? `press ${step.key}${step.said ? ` on ${step.said}` : ''}` : `${step.do} ${step.said}`;
    this.answer(act(dom.action, dom.input, `${said}: the page shows it as ${JSON.stringify(dom.input)}.`, `${said} is done`));
    const outcome = lastOutcome(await this.next());
    if (outcome === undefined) return { ok: false, reason: 'the next prompt shows no result for the step' };
    if (outcome.error) return { ok: false, reason: `${outcome.error.code ?? 'ERROR'}: ${outcome.error.message ?? ''}` };
    if (outcome.execution?.status === 'failed') return { ok: false, reason: 'the step failed' };
    if (outcome.execution?.status === 'unknown') return { ok: true, note: 'Steward could not tell the outcome' };
    return { ok: true };
  }

  /** The model's last word on the run: done when the plan ran to its end, else a question for the person. */
  async finish(run: EpisodeRun, claim: string): Promise<void> {
    if (this.endedWhy !== undefined) return;
    await this.next().catch(() => undefined);
    if (!this.waiting) return;
    this.answer(run.done ? done(claim) : askPerson(`I could not finish: ${run.reason ?? 'no reason'}. Please take over.`));
  }

  private answer(content: string): void {
    const w = this.waiting;
    if (!w) throw new Error('no request is waiting for an answer');
    this.waiting = undefined;
    this.fresh = false;
    w.answer(content);
  }

  /** The waiting request, once the co-pilot has sent one. */
  private async next(): Promise<ChatRequestBody> {
    for (;;) {
      if (this.waiting) return this.waiting.request;
      if (this.endedWhy !== undefined) throw new Error(`the run ended: ${this.endedWhy}`);
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

/** The outcome of the step before this prompt: the last data block of the history (it comes before the state and the page). */
function lastOutcome(request: ChatRequestBody): Outcome | undefined {
  const blocks = dataBlocks(promptOf(request));
  const current = blocks.findIndex((b) => b.kind === 'state' || b.kind === 'page');
  const last = blocks.slice(0, current < 0 ? blocks.length : current).at(-1);
  if (last?.kind !== 'result') return undefined;
  try {
    return JSON.parse(last.text) as Outcome;
  } catch {
    return undefined;
  }
}
