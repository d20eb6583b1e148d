import { describe, expect, it } from 'vitest';
import { runCopilot } from '../../../src/agent/loop.ts';
import type { HistoryEntry } from '../../../src/agent/history.ts';
import type { ActionRequest } from '../../../src/protocol/action.ts';
import { FakeShop, ScriptedModel, act, done, drain, portsFor, track } from './fakes.ts';
import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { said, saidWithRecord } from '../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

const VI = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;

const GOAL = 'Cancel order ORD-1024';
const settings = { run_id: 'run_1' };

describe('the co-pilot loop: one action per step, through the pipeline', () => {
  it('submits the model’s action with the observed resource and a per-step key, and accepts done on the pipeline’s confirmation', async () => {
    const shop = new FakeShop();
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([act('orders.cancel'), done()])));
    expect(shop.executed).toEqual(['orders.cancel']);
    expect(shop.submitted[0]).toMatchObject({ action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: 'run_1.step-1', rationale: 'I will orders.cancel.' });
    expect(steps).toHaveLength(1);
    expect(end).toMatchObject({ kind: 'done', verified: true, claim: 'The order is cancelled.' });
    expect(end.kind === 'done' && end.verified && end.evidence).toContain('confirmed');
  });

  it('feeds the pipeline’s result back into the next prompt', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([act('orders.cancel'), done()]);
    await drain(GOAL, settings, portsFor(shop, model));
    const second = model.prompts[1]![1]!.content;
    expect(second).toContain('step 1 [order ORD-1024 · paid @ fp-100001] orders.cancel');
    expect(second).toContain('\\"status\\":\\"confirmed\\"');
    // The state line's words are the page's: inside a data block.
    expect(second).toMatch(/<data kind="state" id="[0-9a-f]+">\n"order ORD-1024 · cancelled @ fp-100002 \(/);
  });

  it('lists every available action once, with its path, risk and whether it needs approval', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([done()]);
    await drain(GOAL, settings, portsFor(shop, model));
    const prompt = model.prompts[0]![1]!.content;
    // Steward's words about each tool outside the data; the tool's own name inside it, with the same number.
    expect(prompt).toContain('- tool 1: via adapter, consequential, needs approval');
    expect(prompt).toContain('- tool 2: via adapter, read-only, no approval');
    expect(prompt).toMatch(/<data kind="tools" id="[0-9a-f]+">\n"\{\\"tool\\":1,\\"name\\":\\"orders\.cancel\\"/);
    expect(prompt).not.toMatch(/^- orders\./m);
  });

  it('ends with the question when nobody can answer it (no askPerson port)', async () => {
    const shop = new FakeShop();
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([{ kind: 'ask_person', thought: 'Two orders match.', question: 'Which order?' }])));
    expect(end).toEqual({ kind: 'stopped', reason: 'ask_person', detail: 'Which order?' });
  });
});

describe('the person answers and decides', () => {
  const question = { kind: 'ask_person', thought: 'Two orders match.', question: 'Which order?' };

  it('waits for the person’s answer and goes on with it as the step’s result, in the person’s words', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([question, act('orders.cancel'), done()]);
    const asked: Array<{ n: number; question: string; thought: string }> = [];
    let answer: (text: string) => void = () => undefined;
    const ports = {
      ...portsFor(shop, model),
      askPerson: (q: { n: number; question: string; thought: string }) => {
        asked.push(q);
        return new Promise<string>((resolve) => (answer = resolve));
      },
    };
    const run = drain(GOAL, settings, ports);
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toEqual({ n: 1, question: 'Which order?', thought: 'Two orders match.' });
    // Nothing more happens until the person answers.
    expect(model.prompts).toHaveLength(1);
    answer('ORD-1024, the blue one');
    const { steps, end } = await run;
    expect(steps[0]!.entry).toMatchObject({ n: 1, step: { kind: 'ask_person' }, outcome: 'ORD-1024, the blue one' });
    const next = model.prompts[1]![1]!.content;
    expect(next).toContain('step 1 [order ORD-1024 · paid @ fp-100001] asked: Which order?\nthe person answered: "ORD-1024, the blue one"');
    expect(shop.executed).toEqual(['orders.cancel']);
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });

  it('a run stopped while it waits for an answer ends as stopped by the person', async () => {
    const shop = new FakeShop();
    const stopper = new AbortController();
    let waiting = false;
    const ports = {
      ...portsFor(shop, new ScriptedModel([question, done()])),
      askPerson: (_q: unknown, signal?: AbortSignal) =>
        new Promise<string>((_resolve, reject) => {
          waiting = true;
          signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')), { once: true });
        }),
    };
    const run = drain(GOAL, { ...settings, signal: stopper.signal }, ports);
    await expect.poll(() => waiting).toBe(true);
    stopper.abort('stopped_by_person');
    const { end } = await run;
    expect(end).toMatchObject({ kind: 'stopped', reason: 'stopped_by_person' });
    expect(shop.executed).toEqual([]);
  });

  it('a denied approval is the person’s decision: the run ends there, not as a failure, and the model is not asked again', async () => {
    const shop = new FakeShop();
    shop.mode = 'deny';
    const model = new ScriptedModel([act('orders.cancel'), act('orders.cancel'), done()]);
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(end).toEqual({
      kind: 'stopped',
      reason: 'denied_by_person',
      detail: 'You denied orders.cancel on order ORD-1024, so the co-pilot stopped there.',
      // The same, as a phrase the panel says in the person's language.
      detail_said: { code: 'run_denied', params: { action: 'orders.cancel', type: 'order', id: 'ORD-1024' } },
    });
    expect(steps).toHaveLength(1);
    expect(model.prompts).toHaveLength(1);
    expect(shop.executed).toEqual([]);
  });
});

describe('done needs evidence the pipeline confirmed', () => {
  it('reports a bare "done" as not verified', async () => {
    const shop = new FakeShop();
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([done()])));
    expect(end).toMatchObject({ kind: 'done', verified: false, claim: 'The order is cancelled.' });
    expect(end.kind === 'done' && !end.verified && end.why).toMatch(/^not verified/);
  });

  it('does not take a confirmed read-only action as evidence', async () => {
    const shop = new FakeShop();
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([act('orders.track'), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });

  it('does not take a read-only WebMCP tool’s confirmed result as evidence, even when done follows it', async () => {
    const shop = new FakeShop();
    shop.extraActions = [{ ...track, action: 'order_status', via: 'webmcp' }];
    shop.output = { text: 'Your order is cancelled.', untrusted: false };
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([act('order_status'), done()])));
    expect(shop.executed).toEqual(['order_status']);
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });

  it('does not take an action whose outcome is unknown as evidence', async () => {
    const shop = new FakeShop();
    shop.mode = 'unknown_only';
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([act('orders.cancel'), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });

  it('tells the model why a DOM step was refused in the English only, never the phrase meant for the person', async () => {
    const shop = new FakeShop();
    const refused = {
      action_id: 'act_1',
      error: { code: 'EXECUTION_FAILED' as const, message: 'dom.click failed before it took effect: click e6: refused (COVERED) — …', retryable: false, recovery_hint: 'Observe again.' },
      recovery_hint: 'Observe again.',
      error_said: { code: 'act_refused' as const, params: { reason: 'covered' as const, role: 'button', name: 'Pay', cover_role: 'dialog' } },
    };
    const model = new ScriptedModel([act('orders.cancel'), done()]);
    const { steps } = await drain(GOAL, settings, { ...portsFor(shop, model), submit: () => Promise.resolve(refused) });
    expect(steps[0]!.entry.outcome).toContain('refused (COVERED)');
    expect(steps[0]!.entry.outcome).not.toContain('act_refused');
    expect(JSON.stringify(model.prompts)).not.toContain('act_refused');
  });

  it('accepts a fresh observation that matches the goal’s expected state', async () => {
    const shop = new FakeShop();
    shop.mode = 'unknown_only';
    const { end } = await drain(GOAL, { ...settings, expect: { resource: { type: 'order', id: 'ORD-1024' }, state: 'cancelled' } }, portsFor(shop, new ScriptedModel([act('orders.cancel'), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: true, evidence: 'observed order ORD-1024 · cancelled @ fp-100002' });
  });
});

describe('malformed model output', () => {
  it('is retried once with the validation error, and the valid retry is used', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel(['Sure! I will cancel it.', act('orders.cancel'), done()]);
    const { end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(model.prompts).toHaveLength(3);
    const retry = model.prompts[1]!;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Sure! I will cancel it.' });
    expect(retry.at(-1)!.content).toMatch(/^That reply was rejected: Your reply is not one JSON object/);
    expect(shop.executed).toEqual(['orders.cancel']);
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });

  it('names the invalid field when the JSON has the wrong shape', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([{ kind: 'act', thought: 'x', action: { name: 'orders.cancel' } }, act('orders.cancel'), done()]);
    await drain(GOAL, settings, portsFor(shop, model));
    expect(model.prompts[1]!.at(-1)!.content).toContain('expect: is required');
  });

  it('rejects a DOM action whose input the pipeline would refuse, before submitting it', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([act('dom.click', { selector: '#x' }), done()]);
    await drain(GOAL, settings, portsFor(shop, model));
    expect(model.prompts[1]!.at(-1)!.content).toContain('input');
    expect(shop.submitted).toEqual([]);
  });

  it('invalid twice is a failed step; three of them in a row stop the run with the errors', async () => {
    const shop = new FakeShop();
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel(['a', 'b', 'c', 'd', 'e', 'f'])));
    expect(steps.map((s) => s.entry.step)).toEqual([undefined, undefined, undefined]);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'failures' });
    expect(end.kind === 'stopped' && end.errors).toHaveLength(3);
    expect(end.kind === 'stopped' && end.errors_said).toEqual([1, 2, 3].map((step) => ({ code: 'failure_invalid_reply', params: { step } })));
    expect(shop.submitted).toEqual([]);
  });
});

describe('rails enforced in code', () => {
  it('stops at MAX_STEPS', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([act('orders.track', { n: 1 }), act('orders.track', { n: 2 }), act('orders.track', { n: 3 })]);
    const { steps, end } = await drain(GOAL, { ...settings, max_steps: 2 }, portsFor(shop, model));
    expect(steps).toHaveLength(2);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'max_steps' });
  });

  it('defaults MAX_STEPS to 25', async () => {
    const shop = new FakeShop();
    const replies = Array.from({ length: 30 }, (_, i) => act(i % 2 ? 'orders.track' : 'orders.cancel', { n: i }));
    const ports = portsFor(shop, new ScriptedModel(replies));
    ports.observe = () => {
      shop.version++;
      return Promise.resolve(shop.observation());
    };
    const { steps, end } = await drain(GOAL, settings, ports);
    expect(steps).toHaveLength(25);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'max_steps' });
  });

  it('stops and asks the person when the model asks for the same action a third time in a row (not submitted)', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([act('orders.track'), act('orders.track'), act('orders.track')]);
    const { end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(end).toMatchObject({ kind: 'stopped', reason: 'stuck' });
    expect(end.kind === 'stopped' && end.detail).toContain('orders.track 3 times in a row');
    expect(shop.submitted).toHaveLength(2);
  });

  it('stops and asks the person when the state has not changed for three steps', async () => {
    const shop = new FakeShop();
    const model = new ScriptedModel([act('orders.track', { n: 1 }), act('orders.track', { n: 2 }), act('orders.track', { n: 3 }), act('orders.track', { n: 4 })]);
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(steps).toHaveLength(3);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'stuck' });
    expect(end.kind === 'stopped' && end.detail).toContain('has not changed for 3 steps');
  });

  it('counts a confirmed field change as progress although the state’s version ignores it (a form filled field by field)', async () => {
    const shop = new FakeShop();
    shop.extraActions = [{ ...track, action: 'dom.type', via: 'legacy_inference', description: 'Types into a field.' }];
    const fields = [1, 2, 3, 4, 5].map((n) => act('dom.type', { ref: `e${n}`, text: 'x' }));
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([...fields, done()])));
    expect(steps).toHaveLength(5);
    // Typing is read-only, so it is no evidence the goal was reached: done stays "not verified".
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });

  it('stops after three consecutive failures, with the errors', async () => {
    const shop = new FakeShop();
    shop.mode = 'fail';
    const model = new ScriptedModel([act('orders.cancel', { n: 1 }), act('orders.cancel', { n: 2 }), act('orders.cancel', { n: 3 })]);
    const { end } = await drain(GOAL, settings, portsFor(shop, model));
    expect(end).toMatchObject({ kind: 'stopped', reason: 'failures' });
    expect(end.kind === 'stopped' && end.errors).toEqual([
      'step 1: PRECONDITION_FAILED: The order changed.',
      'step 2: PRECONDITION_FAILED: The order changed.',
      'step 3: PRECONDITION_FAILED: The order changed.',
    ]);
    // For the panel, each as a phrase: the step and the error's code, worded in the person's language.
    expect(end.kind === 'stopped' && end.errors_said).toEqual([1, 2, 3].map((step) => ({ code: 'failure_refused', params: { step, code: 'PRECONDITION_FAILED' } })));
    useMessageSource(catalogueSource(VI, 'vi'));
    expect(end.kind === 'stopped' && end.errors_said!.map((p, i) => said(p, end.errors![i]!))).toEqual(
      [1, 2, 3].map((n) => `Bước ${n}: chưa thực hiện: ${VI.said_error_PRECONDITION_FAILED!.message} (PRECONDITION_FAILED).`),
    );
  });

  it('lists a failed step the page refused by why it refused, in the person’s language, the code in the English record', async () => {
    const shop = new FakeShop();
    const english = 'dom.click failed before it took effect: click e6: refused (DISABLED) — <button#pay> "Pay" is disabled';
    const refused = {
      action_id: 'act_1',
      error: { code: 'EXECUTION_FAILED' as const, message: english, retryable: false, recovery_hint: 'Observe again.' },
      recovery_hint: 'Observe again.',
      error_said: { code: 'act_refused' as const, params: { reason: 'disabled' as const, role: 'button', name: 'Pay' } },
    };
    const model = new ScriptedModel([act('orders.cancel', { n: 1 }), act('orders.cancel', { n: 2 }), act('orders.cancel', { n: 3 })]);
    const { end } = await drain(GOAL, settings, { ...portsFor(shop, model), submit: () => Promise.resolve(refused) });
    expect(end).toMatchObject({ kind: 'stopped', reason: 'failures' });
    if (end.kind !== 'stopped') return;
    expect(end.errors).toEqual([1, 2, 3].map((n) => `step ${n}: EXECUTION_FAILED: ${english}`));
    useMessageSource(catalogueSource(VI, 'vi'));
    expect(end.errors_said!.map((p, i) => saidWithRecord(p, end.errors![i]!))).toEqual(
      [1, 2, 3].map((n) => ({ words: `Bước ${n}: Chưa thực hiện: nút “Pay” đang bị vô hiệu hoá.`, record: `step ${n}: EXECUTION_FAILED: ${english}` })),
    );
  });

  it('counts a submit that throws as a failure', async () => {
    const shop = new FakeShop();
    const ports = portsFor(shop, new ScriptedModel([act('orders.cancel', { n: 1 }), act('orders.cancel', { n: 2 }), act('orders.cancel', { n: 3 })]));
    ports.submit = () => Promise.reject(new Error('no tab'));
    const { end } = await drain(GOAL, settings, ports);
    expect(end).toMatchObject({
      kind: 'stopped',
      reason: 'failures',
      errors: ['step 1: submit failed: no tab', 'step 2: submit failed: no tab', 'step 3: submit failed: no tab'],
      errors_said: [1, 2, 3].map((step) => ({ code: 'failure_submit', params: { step } })),
    });
  });

  it('stops when the time budget is spent', async () => {
    const shop = new FakeShop();
    let now = 0;
    const ports = portsFor(shop, new ScriptedModel([act('orders.cancel'), act('orders.track'), done()]), () => now);
    const complete = ports.complete;
    ports.complete = (m) => {
      now += 3000;
      return complete(m);
    };
    const { steps, end } = await drain(GOAL, { ...settings, time_budget_ms: 5000 }, ports);
    expect(steps).toHaveLength(2);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'time_budget' });
  });

  it('stops before a prompt that would pass the token budget, and reports the tokens used live', async () => {
    const shop = new FakeShop();
    const unlimited = await drain(GOAL, settings, portsFor(new FakeShop(), new ScriptedModel([act('orders.cancel'), done()])));
    const firstStep = unlimited.steps[0]!.tokens_used;
    expect(firstStep).toBeGreaterThan(0);

    const model = new ScriptedModel([act('orders.cancel'), done()]);
    const { steps, end } = await drain(GOAL, { ...settings, token_budget: firstStep + 10 }, portsFor(shop, model));
    expect(model.prompts).toHaveLength(1);
    expect(steps[0]!.tokens_used).toBe(firstStep);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'token_budget' });
  });
});

describe('a restarted run never repeats an action', () => {
  it('derives the same key for the same step, so the pipeline replays instead of running it again', async () => {
    const shop = new FakeShop();
    // The worker dies while step 1 is in the pipeline: the shop ran it, the loop never heard back.
    const dying = portsFor(shop, new ScriptedModel([act('orders.cancel')]));
    dying.submit = (r) => {
      shop.submit(r);
      return new Promise(() => undefined);
    };
    const first = runCopilot(GOAL, settings, dying);
    await Promise.race([first.next(), new Promise((r) => setTimeout(r, 10))]);
    expect(shop.executed).toEqual(['orders.cancel']);

    // Resumed from memory with nothing recorded for step 1: the model asks for it again.
    const { end } = await drain(GOAL, { ...settings, resume: [] }, portsFor(shop, new ScriptedModel([act('orders.cancel'), done()])));
    expect(shop.submitted.map((r) => r.idempotency_key)).toEqual(['run_1.step-1', 'run_1.step-1']);
    expect(shop.executed).toEqual(['orders.cancel']);
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });

  it('re-submits the in-flight request first, so the action runs once across the restart, and continues after it', async () => {
    const shop = new FakeShop();
    // What the worker persists: the steps as they end, and the request at "submitting".
    const memory: { history: HistoryEntry[]; inflight?: ActionRequest } = { history: [] };
    const dying = portsFor(shop, new ScriptedModel([act('orders.track'), act('orders.cancel')]));
    dying.progress = (e) => {
      if (e.phase === 'submitting') memory.inflight = e.request;
    };
    dying.submit = (r) => {
      const result = shop.submit(r);
      // The worker dies while step 2 is in the pipeline: the shop ran it, the loop never heard back.
      return r.action === 'orders.cancel' ? new Promise(() => undefined) : Promise.resolve(result);
    };
    const first = runCopilot(GOAL, settings, dying);
    const step1 = await first.next();
    if (!step1.done) memory.history.push(step1.value.entry);
    await Promise.race([first.next(), new Promise((r) => setTimeout(r, 10))]);
    expect(shop.runsByKey).toEqual(
      new Map([
        ['run_1.step-1', 1],
        ['run_1.step-2', 1],
      ]),
    );

    const model = new ScriptedModel([done()]);
    const { steps, end } = await drain(GOAL, { ...settings, resume: memory.history, inflight: memory.inflight! }, portsFor(shop, model));
    expect(shop.submitted.map((r) => r.idempotency_key)).toEqual(['run_1.step-1', 'run_1.step-2', 'run_1.step-2']);
    expect(shop.runsByKey).toEqual(
      new Map([
        ['run_1.step-1', 1],
        ['run_1.step-2', 1],
      ]),
    );
    expect(steps.map((s) => s.entry)).toMatchObject([{ n: 2, step: { kind: 'act', action: { name: 'orders.cancel' } }, evidence: expect.stringContaining('confirmed') as string }]);
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0]![1]!.content).toContain('step 2 [order ORD-1024 · cancelled @ fp-100002 (after a restart)] orders.cancel');
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });

  it('keeps the evidence of a step confirmed before the restart', async () => {
    const shop = new FakeShop();
    const first = await drain(GOAL, { ...settings, max_steps: 1 }, portsFor(shop, new ScriptedModel([act('orders.cancel')])));
    const { end } = await drain(GOAL, { ...settings, resume: first.steps.map((s) => s.entry) }, portsFor(shop, new ScriptedModel([done()])));
    expect(end).toMatchObject({ kind: 'done', verified: true, evidence: expect.stringContaining('act_1 confirmed') as string });
  });

  it('refuses a remembered history that is not valid', async () => {
    const resume = [{ n: 0, state: 'order ORD-1024 · paid @ fp-100001', step: { kind: 'act', thought: '', action: { name: 'orders track', input: {} }, expect: 'x' } }] as unknown as HistoryEntry[];
    await expect(drain(GOAL, { ...settings, resume }, portsFor(new FakeShop(), new ScriptedModel([])))).rejects.toThrow(/^the remembered history is not valid: 0\.n: .*; 0\.step\.action\.name: /);
  });

  it('refuses a run id that cannot form idempotency keys', async () => {
    await expect(drain(GOAL, { run_id: 'run 1' }, portsFor(new FakeShop(), new ScriptedModel([])))).rejects.toThrow('cannot form idempotency keys');
  });

  it('continues numbering after the steps remembered before the restart', async () => {
    const shop = new FakeShop();
    const resume = [
      { n: 1, state: 'order ORD-1024 · paid @ fp-100001', step: { kind: 'act' as const, thought: '', action: { name: 'orders.track', input: {} }, expect: 'where it is' }, outcome: '{}' },
    ];
    await drain(GOAL, { ...settings, resume }, portsFor(shop, new ScriptedModel([act('orders.cancel'), done()])));
    expect(shop.submitted.map((r) => r.idempotency_key)).toEqual(['run_1.step-2']);
  });
});
