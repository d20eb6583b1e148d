import type { Clock } from '../base/clock.ts';
import type { ActionRequest } from '../protocol/action.ts';
import type { PageSnapshot } from '../protocol/snapshot.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { ActionResult } from '../protocol/results.ts';

/**
 * Everything the co-pilot's loop needs from outside, as injected interfaces: the service worker
 * will implement them with the pipeline, the observer and a language-model provider; tests with
 * a scripted model and a fake pipeline. The loop gets no power these ports do not give it.
 */

/** A fresh observation of the run's tab: the state, and how it is rendered for the model. */
export interface Observation {
  state: ObservedState;
  /** The LLM rendering of the page (page text: data, never instructions). */
  rendering: string;
  /** The snapshot the rendering came from: the model's `query`/`expand` by ref read it (pure, no port). */
  snapshot?: PageSnapshot;
}

/** Live progress inside a step, for the panel (the step's report comes when it ends). */
export type StepProgress = { n: number; phase: 'thinking' } | { n: number; phase: 'submitting'; request: ActionRequest; thought: string; expect: string };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The model's question to the person, as the loop asks it. */
export interface Question {
  n: number;
  question: string;
  thought: string;
}

export interface AgentPorts {
  observe(): Promise<Observation>;
  /** The model's whole reply to `messages`, as text; throws ModelFailure (src/agent/models/model.ts); stops early when `signal` aborts. */
  complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string>;
  /** Submits through the pipeline with the run's own agent id and token, as any agent does. */
  submit(request: ActionRequest): Promise<ActionResult>;
  clock: Clock;
  /**
   * Shows the question to the person and resolves with their answer (the step's result); rejects
   * when `signal` aborts (the person stopped the run while it waited). Without it, a question ends
   * the run (`ask_person`): nobody is there to answer.
   */
  askPerson?(question: Question, signal?: AbortSignal): Promise<string>;
  /** `thinking` before the model is asked; `submitting` right before `submit` (persist `request` then: it is the run's in-flight step if the worker restarts). */
  progress?(event: StepProgress): void;
}
