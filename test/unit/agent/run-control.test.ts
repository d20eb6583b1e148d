import { describe, expect, it } from 'vitest';
import { ModelFailure } from '../../../src/agent/models/model.ts';
import type { StepProgress } from '../../../src/agent/ports.ts';
import { FakeShop, ScriptedModel, act, done, drain, portsFor } from './fakes.ts';

const GOAL = 'Cancel order ORD-1024';
const settings = { run_id: 'run_c' };

describe('live progress for the panel', () => {
  it('says when it is thinking, and hands over the exact request right before submitting it', async () => {
    const shop = new FakeShop();
    const events: Array<StepProgress & { submitted_before?: number }> = [];
    const ports = portsFor(shop, new ScriptedModel([act('orders.cancel'), done()]));
    ports.progress = (e) => events.push({ ...e, submitted_before: shop.submitted.length });
    await drain(GOAL, settings, ports);
    expect(events).toEqual([
      { n: 1, phase: 'thinking', submitted_before: 0 },
      { n: 1, phase: 'submitting', request: shop.submitted[0], thought: 'I will orders.cancel.', expect: 'the order changes', submitted_before: 0 },
      { n: 2, phase: 'thinking', submitted_before: 1 },
    ]);
  });
});

describe('model failures end the run with a plain sentence', () => {
  it('stops with model_error, the provider’s message and its error', async () => {
    const shop = new FakeShop();
    const error = { code: 'rate_limited' as const, message: 'The model is rate-limited; try again in 20 seconds.', retry_after_ms: 20_000 };
    const { steps, end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel([act('orders.cancel'), new ModelFailure(error)])));
    expect(steps).toHaveLength(1);
    expect(end).toEqual({ kind: 'stopped', reason: 'model_error', detail: 'The model is rate-limited; try again in 20 seconds.', model_error: error });
  });

  it('stops on a failure of the retry after a malformed reply, without submitting', async () => {
    const shop = new FakeShop();
    const error = { code: 'bad_key' as const, message: 'The API key was refused; enter a new one in Settings.' };
    const { end } = await drain(GOAL, settings, portsFor(shop, new ScriptedModel(['not json', new ModelFailure(error)])));
    expect(end).toMatchObject({ kind: 'stopped', reason: 'model_error', model_error: error });
    expect(shop.submitted).toEqual([]);
  });

  it('lets any other error through to the caller', async () => {
    await expect(drain(GOAL, settings, portsFor(new FakeShop(), new ScriptedModel([new TypeError('bug')])))).rejects.toThrow('bug');
  });
});

describe('stopping a run', () => {
  it('passes the signal to the model and stops before the next phase once it is aborted', async () => {
    const shop = new FakeShop();
    const control = new AbortController();
    const model = new ScriptedModel([act('orders.track'), act('orders.cancel'), done()]);
    const ports = portsFor(shop, model);
    const complete = ports.complete;
    ports.complete = async (m, signal) => {
      const reply = await complete(m, signal);
      if (model.prompts.length === 2) control.abort();
      return reply;
    };
    const { steps, end } = await drain(GOAL, { ...settings, signal: control.signal }, ports);
    expect(model.signals[0]).toBe(control.signal);
    expect(steps).toHaveLength(1);
    expect(shop.executed).toEqual(['orders.track']);
    expect(end).toEqual({ kind: 'stopped', reason: 'stopped_by_person', detail: 'stopped by the person' });
  });

  it('takes the reason from the signal when it is one of the run’s end reasons', async () => {
    const control = new AbortController();
    control.abort('taken_over');
    const { end } = await drain(GOAL, { ...settings, signal: control.signal }, portsFor(new FakeShop(), new ScriptedModel([done()])));
    expect(end).toEqual({ kind: 'stopped', reason: 'taken_over', detail: 'the person took over; the tab is left as it is' });

    const other = new AbortController();
    other.abort(new Error('whatever'));
    const second = await drain(GOAL, { ...settings, signal: other.signal }, portsFor(new FakeShop(), new ScriptedModel([done()])));
    expect(second.end).toMatchObject({ reason: 'stopped_by_person' });
  });

  it('reports a model call cut short by the stop as the stop, not a model error', async () => {
    const control = new AbortController();
    const ports = portsFor(new FakeShop(), new ScriptedModel([]));
    ports.complete = () => {
      control.abort('tab_closed');
      return Promise.reject(new ModelFailure({ code: 'network', message: 'aborted' }));
    };
    const { end } = await drain(GOAL, { ...settings, signal: control.signal }, ports);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'tab_closed' });
  });

  it('reports a submit ended by the stop (say, while awaiting approval) as the stop, not a failed step', async () => {
    const shop = new FakeShop();
    const control = new AbortController();
    const ports = portsFor(shop, new ScriptedModel([act('orders.cancel')]));
    ports.submit = () => {
      control.abort();
      return Promise.reject(new Error('approval withdrawn'));
    };
    const { steps, end } = await drain(GOAL, { ...settings, signal: control.signal }, ports);
    expect(steps).toEqual([]);
    expect(end).toMatchObject({ kind: 'stopped', reason: 'stopped_by_person' });
  });
});
