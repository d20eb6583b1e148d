import { describe, expect, it } from 'vitest';
import type { AgentPorts } from '../../../src/agent/ports.ts';
import type { ActionRequest } from '../../../src/protocol/action.ts';
import { ObservedState } from '../../../src/protocol/observed-state.ts';
import type { ActionResult } from '../../../src/protocol/results.ts';
import { runEpisode } from '../../../sites/model/widget-agent/episode.ts';
import type { Plan } from '../../../sites/model/widget-agent/plans.ts';
import { CopilotWidgetActor } from '../../harness/copilot-widget-actor.ts';
import { drain } from '../agent/fakes.ts';

/**
 * The widget agent as the co-pilot's model, against the real loop and prompt: it finds refs only
 * in the page block of each prompt, answers one DOM step per request, reads the step's outcome
 * from the next prompt's history, looks again with a read when a suggestion list is not there yet,
 * and ends the run with done, or with a question naming what stopped it.
 */

const PAGE = { type: 'page', id: 'lab.test/widgets/city' };
const city = 'page lab.test/widgets/city\n# "Where to?"\ne1 textbox "City" · e2 button "Submit" !';
const suggested = `${city}\n  ↳ listbox c1 (from e1): e5 option "Lisbon, Portugal" · e6 option "Lille, France"`;

/** A page shown as `renderings[i]` at the i-th look of the loop (the last one stays). */
function page(renderings: string[], result: (req: ActionRequest) => ActionResult) {
  const submitted: ActionRequest[] = [];
  let looks = 0;
  const observe = () => {
    const state = ObservedState.parse({
      resource: PAGE,
      state: 'unknown',
      available_actions: ['dom.click', 'dom.type', 'dom.upload'],
      source: 'legacy_inference',
      evidence: ['dom'],
      confidence: 0.5,
      conflicts: [],
      state_version: `fp-${(0x100000 + submitted.length).toString(16)}`,
      observed_at: '2026-01-01T00:00:00.000Z',
      url: 'http://lab.test/widgets/city',
    });
    return Promise.resolve({ state, rendering: renderings[Math.min(looks++, renderings.length - 1)]! });
  };
  return { submitted, observe, result };
}

function ports(p: ReturnType<typeof page>, actor: CopilotWidgetActor): AgentPorts {
  return {
    observe: p.observe,
    complete: (messages) => actor.reply({ messages }),
    submit: (req) => {
      p.submitted.push(req);
      return Promise.resolve(p.result(req));
    },
    clock: () => 0,
  };
}

const confirmed = (req: ActionRequest): ActionResult => ({
  action_id: `act_${req.idempotency_key}`,
  resource: PAGE,
  execution: { status: 'confirmed', certainty: 'confirmed', executed_at: '2026-01-01T00:00:01.000Z', verified_by: 'postcondition' },
});
const plan: Plan = {
  task: 'city',
  steps: [
    { do: 'type', target: { name: 'City', roles: ['textbox'], said: '"City"' }, text: 'Li' },
    { do: 'click', target: { name: 'Lisbon, Portugal', roles: ['option'], said: '"Lisbon, Portugal"' } },
    { do: 'click', target: { name: 'Submit', roles: ['button'], said: '"Submit"' } },
  ],
};
const noSleep = { sleep: async () => undefined };

describe('the widget agent as the co-pilot’s model', () => {
  it('takes each step on the ref the prompt’s page showed, looks again with a read while the list fills, and says done', async () => {
    // The look after typing still lacks the suggestions; the one after the read has them.
    const p = page([city, city, suggested], confirmed);
    const actor = new CopilotWidgetActor();
    const [run, agent] = await Promise.all([
      drain('Choose Lisbon and submit.', { run_id: 'run_1' }, ports(p, actor)),
      runEpisode(plan, actor, noSleep).then(async (r) => {
        await actor.finish(r, 'Lisbon chosen and submitted.');
        return r;
      }),
    ]);
    expect(agent).toMatchObject({ done: true });
    expect(p.submitted.map((r) => [r.action, r.input])).toEqual([
      ['dom.type', { ref: 'e1', text: 'Li', clear: true }],
      ['dom.click', { ref: 'e5' }],
      ['dom.click', { ref: 'e2' }],
    ]);
    expect(run.steps.map((s) => s.entry.step?.kind)).toEqual(['act', 'read', 'act', 'act']);
    expect(run.steps[1]!.entry.step).toMatchObject({ kind: 'read', query: { name: 'Lisbon, Portugal' } });
    expect(run.end).toMatchObject({ kind: 'done', claim: 'Lisbon chosen and submitted.' });
  });

  it('stops on a refusal with Steward’s words, and asks the person to take over', async () => {
    const p = page(
      [city],
      (req) =>
        ({
          error: { code: 'FILE_CHOICE_REQUIRED', message: 'only the person may choose a file', retryable: false },
          action_id: `act_${req.idempotency_key}`,
        }) as ActionResult,
    );
    const actor = new CopilotWidgetActor();
    const upload: Plan = { task: 'file', steps: [{ do: 'upload', target: { name: 'City', roles: ['textbox'], said: '"City"' } }] };
    const [run, agent] = await Promise.all([
      drain('Attach a file.', { run_id: 'run_2' }, ports(p, actor)),
      runEpisode(upload, actor, noSleep).then(async (r) => {
        await actor.finish(r, 'unused');
        return r;
      }),
    ]);
    expect(agent.reason).toBe('upload "City": FILE_CHOICE_REQUIRED: only the person may choose a file');
    expect(p.submitted.map((r) => r.action)).toEqual(['dom.upload']);
    expect(run.end).toMatchObject({ kind: 'stopped', reason: 'ask_person', detail: expect.stringContaining('FILE_CHOICE_REQUIRED') });
  });

  it('ends its wait when the run ends without asking again', async () => {
    const actor = new CopilotWidgetActor();
    const waiting = runEpisode(plan, actor, noSleep);
    actor.ended('stuck: the state has not changed');
    expect((await waiting).reason).toBe('the agent broke: the run ended: stuck: the state has not changed');
  });
});
