/**
 * What people did on the widget pages, as the server received it: each page sends its result
 * (`POST /widgets/<slug>/answer`, JSON or a plain form) under the episode id its URL carries
 * (`?episode=t07-3`), so a test or the bench checks ground truth here, never the page's claim.
 */
import { z } from 'zod';

/** An episode id as tasks write it into a page's query (`t07-3`, `bench.run-2.t07`). */
export const EpisodeId = z.string().regex(/^[\w.-]{1,64}$/, 'an episode id is 1–64 letters, digits, "_", "." or "-"');

/** What one page sent for one episode. */
export interface WidgetAnswer {
  seq: number;
  at: string;
  episode: string;
  slug: string;
  answer: unknown;
}

/** Answers kept at most (oldest dropped first): a bench run is a few hundred. */
const ANSWER_LIMIT = 2_000;

export class AnswerStore {
  private answers: WidgetAnswer[] = [];
  private seq = 0;

  record(slug: string, episode: string, answer: unknown): WidgetAnswer {
    this.seq += 1;
    const entry: WidgetAnswer = { seq: this.seq, at: new Date().toISOString(), episode, slug, answer: structuredClone(answer) };
    this.answers.push(entry);
    if (this.answers.length > ANSWER_LIMIT) this.answers.splice(0, this.answers.length - ANSWER_LIMIT);
    return entry;
  }

  /** One episode's answers, oldest first (every episode's when none is named). */
  list(episode?: string): WidgetAnswer[] {
    return this.answers.filter((a) => episode === undefined || a.episode === episode).map((a) => structuredClone(a));
  }

  clear(): void {
    this.answers = [];
    this.seq = 0;
  }
}
