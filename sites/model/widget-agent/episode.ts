import { stepWords, type Plan, type SimpleStep, type Step } from './plans.ts';
import { findTarget, holds, untilWords, type Found, type Target, type View } from './view.ts';

/**
 * One episode of the scripted widget agent (pure, the page reached only through an `Actor`): look,
 * find what the plan's next step names in what was read, act, look again — until the plan is done,
 * a target cannot be found, the view's owner refuses or fails the action, or the bound on steps
 * is reached. The same driver runs both views; only the actor differs.
 */

export type Hit = Extract<Found, { node: unknown }>;

/** A step with its targets found in the view. */
export type ResolvedStep =
  | { do: 'click' | 'hover' | 'upload'; hit: Hit; said: string }
  | { do: 'type'; hit: Hit; said: string; text: string }
  | { do: 'select'; hit: Hit; said: string; values: string[] }
  | { do: 'press'; key: string; hit?: Hit; said?: string }
  | { do: 'drag'; hit: Hit; said: string; onto: Hit; ontoSaid: string; at?: 'top' }
  | { do: 'check'; hit: Hit; said: string; checked: boolean };

/**
 * `note`: done, with a caveat the view's owner gave (Steward could not tell the outcome); `asked`:
 * the person was asked to approve the step first (their answer is part of its time).
 */
export type ActResult = { ok: true; note?: string; asked?: boolean } | { ok: false; reason: string };

export interface Actor {
  /**
   * Reads the page: the text the agent read (it is counted) and its nodes. `missing`: looking
   * again because the last look lacked this target (a list still filling).
   */
  look(missing?: Target): Promise<{ text: string; view: View }>;
  /** Takes one step; a refusal or failure says why, in the view owner's words. */
  act(step: ResolvedStep, view: View): Promise<ActResult>;
}

interface StepRecord {
  step: string;
  /** The action and the look after it. */
  ms: number;
  /** A person approved it on the way (their answer is in `ms`). */
  asked: boolean;
}

export interface EpisodeRun {
  done: boolean;
  /** Why it stopped before the end of the plan. */
  reason?: string;
  steps: StepRecord[];
  /** Every text read, in order. */
  looks: string[];
  /** Caveats on steps that went on (`click "Save": outcome unknown`). */
  notes: string[];
}

export interface EpisodeOptions {
  /** Most actions in one episode (a repeat's every round counts). */
  maxSteps?: number;
  /** Looks again this many times, `retryMs` apart, when a target is not in the view yet (a list still filling). */
  retries?: number;
  retryMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

class Stop extends Error {}

export async function runEpisode(plan: Plan, actor: Actor, options: EpisodeOptions = {}): Promise<EpisodeRun> {
  const maxSteps = options.maxSteps ?? 30;
  const retries = options.retries ?? 2;
  const retryMs = options.retryMs ?? 300;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? (() => performance.now());
  const run: EpisodeRun = { done: false, steps: [], looks: [], notes: [] };
  let view: View;
  const look = async (missing?: Target) => {
    const seen = await actor.look(missing);
    run.looks.push(seen.text);
    view = seen.view;
  };
  const stop = (reason: string): never => {
    run.reason = reason;
    throw new Stop(reason);
  };

  /** Finds every target of a step, looking again a little later when one is missing. */
  const resolve = async (step: SimpleStep): Promise<ResolvedStep> => {
    for (let attempt = 0; ; attempt++) {
      const r = tryResolve(step, view);
      if (!('miss' in r)) return r;
      if (attempt >= retries) return stop(`${stepWords(step)}: ${r.miss}`);
      await sleep(retryMs);
      await look('target' in step ? step.target : undefined);
    }
  };

  const one = async (step: SimpleStep) => {
    if (run.steps.length >= maxSteps) stop(`over the bound of ${maxSteps} steps`);
    const resolved = await resolve(step);
    const start = now();
    const result = await actor.act(resolved, view);
    if (!result.ok) return stop(`${stepWords(step)}: ${result.reason}`);
    if (result.note) run.notes.push(`${stepWords(step)}: ${result.note}`);
    await look();
    run.steps.push({ step: stepWords(step), ms: now() - start, asked: result.asked === true });
  };

  const any = async (step: Step) => {
    if (step.do !== 'repeat') return one(step);
    for (let i = 0; i < step.max && !holds(view, step.until); i++) await one(step.step);
    if (!holds(view, step.until)) stop(`${stepWords(step.step)}: still not ${untilWords(step.until)} after ${step.max} times`);
  };

  try {
    await look();
    for (const step of plan.steps) await any(step);
    run.done = true;
  } catch (error) {
    if (!(error instanceof Stop)) run.reason = `the agent broke: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return run;
}

function tryResolve(step: SimpleStep, view: View): ResolvedStep | { miss: string } {
  if (step.do === 'press') {
    if (!step.target) return { do: 'press', key: step.key };
    const hit = findTarget(view, step.target);
    return 'miss' in hit ? hit : { do: 'press', key: step.key, hit, said: step.target.said };
  }
  const hit = findTarget(view, step.target);
  if ('miss' in hit) return hit;
  const said = step.target.said;
  switch (step.do) {
    case 'type':
      return { do: 'type', hit, said, text: step.text };
    case 'select':
      return { do: 'select', hit, said, values: step.values };
    case 'check':
      return { do: 'check', hit, said, checked: step.checked };
    case 'drag': {
      const onto = findTarget(view, step.onto);
      if ('miss' in onto) return { miss: `drop target: ${onto.miss}` };
      return { do: 'drag', hit, said, onto, ontoSaid: step.onto.said, ...(step.at ? { at: step.at } : {}) };
    }
    default:
      return { do: step.do, hit, said };
  }
}
