import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIDGET_TASKS } from '../../../sites/lab/widgets/tasks.ts';
import { runEpisode, type Actor, type ResolvedStep } from '../../../sites/model/widget-agent/episode.ts';
import { WIDGET_PLANS, type Plan } from '../../../sites/model/widget-agent/plans.ts';
import { StewardActor, type ToolCaller } from '../../../sites/model/widget-agent/steward-actor.ts';
import { parseStewardLook } from '../../../sites/model/widget-agent/steward-text.ts';

/**
 * The episode driver and Steward's side of the agent, against scripted looks and a scripted MCP
 * client: the plan's steps in order, a repeat that stops when the view shows what it waits for,
 * every stop with its reason, and steward_execute's approval round (APPROVAL_REQUIRED, the person
 * approves, the same key again) counted.
 */

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/widget-agent', name), 'utf8');
const noSleep = async () => undefined;

/** An actor over a list of looks: each action moves to the next look (or stays on the last). */
function scripted(looks: string[], refuse?: (step: ResolvedStep) => string | undefined): Actor & { acted: ResolvedStep[] } {
  let at = 0;
  const acted: ResolvedStep[] = [];
  return {
    acted,
    async look() {
      const text = looks[Math.min(at, looks.length - 1)]!;
      return { text, view: parseStewardLook(text).view };
    },
    async act(step) {
      const why = refuse?.(step);
      if (why) return { ok: false, reason: why };
      acted.push(step);
      at++;
      return { ok: true };
    },
  };
}

const page = (...lines: string[]) => `<data>page lab.test/w\n${lines.join('\n')}</data>`;

describe('an episode', () => {
  it('runs the plan step by step on what each look shows, and records each step and look', async () => {
    const actor = scripted([fixture('jq-tabs.steward.txt'), page('e3 tab "Shipping" [selected]', 'e9 button "Use a pickup point" !')]);
    const plan = WIDGET_PLANS.find((p) => p.task === 'jq-tabs')!;
    const run = await runEpisode(plan, actor, { sleep: noSleep });
    expect(run).toMatchObject({ done: true, steps: [{ step: 'click "Shipping"' }, { step: 'click "Use a pickup point"' }] });
    expect(actor.acted.map((s) => ('hit' in s ? s.hit?.node.ref : undefined))).toEqual(['e3', 'e9']);
    expect(run.looks).toHaveLength(3);
  });

  it('repeats a key until the view shows the value, and stops with a reason when it never does', async () => {
    const slider = (v: number) => page(`e1 slider "Volume" ! = "${v}"`, 'e2 button "Save" !');
    const plan = WIDGET_PLANS.find((p) => p.task === 'mui-slider')!;
    const ok = scripted([slider(50), slider(40), slider(30), slider(30)]);
    expect(await runEpisode(plan, ok, { sleep: noSleep })).toMatchObject({ done: true });
    expect(ok.acted.map((s) => s.do)).toEqual(['press', 'press', 'click']);
    const stuck = await runEpisode(plan, scripted([slider(50)]), { sleep: noSleep });
    expect(stuck).toMatchObject({ done: false, reason: 'press ArrowLeft on "Volume": still not "Volume" shows "30" after 10 times' });
  });

  it('looks again when a target is missing, then names what the view lacked', async () => {
    const plan: Plan = { task: 't', steps: [{ do: 'click', target: { name: 'Lisbon, Portugal', roles: ['option'], said: '"Lisbon, Portugal"' } }] };
    const actor = scripted([page('e2 textbox "City" = "Li"')]);
    let looks = 0;
    const counting: Actor = { act: actor.act, look: async () => (looks++, actor.look()) };
    const run = await runEpisode(plan, counting, { sleep: noSleep, retries: 2 });
    expect(run.reason).toBe('click "Lisbon, Portugal": nothing named "Lisbon, Portugal" in the view ("Lisbon, Portugal")');
    expect(looks).toBe(3);
  });

  it('ends with the refusal the view gave, and at the bound on steps', async () => {
    const plan = WIDGET_PLANS.find((p) => p.task === 'native-file')!;
    const run = await runEpisode(
      plan,
      scripted([page('e2 button "Attachment" ! type=file', 'e3 button "Upload"')], () => 'FILE_CHOICE_REQUIRED: only the person may choose a file'),
      { sleep: noSleep },
    );
    expect(run).toMatchObject({ done: false, reason: 'upload "Attachment": FILE_CHOICE_REQUIRED: only the person may choose a file', steps: [] });
    const loop: Plan = { task: 't', steps: [{ do: 'repeat', step: { do: 'click', target: { name: '+', said: '"+"' } }, until: { says: 'never' }, max: 50 }] };
    expect(await runEpisode(loop, scripted([page('e3 button "+"')]), { sleep: noSleep, maxSteps: 5 })).toMatchObject({ done: false, reason: 'over the bound of 5 steps' });
  });
});

describe('the plans', () => {
  it('cover every widget task, once', () => {
    expect(WIDGET_PLANS.map((p) => p.task).sort()).toEqual(WIDGET_TASKS.map((t) => t.id).sort());
  });
});

/** A scripted MCP client: steward_observe answers `look`; steward_execute answers from `executes` in turn. */
function client(
  look: string,
  executes: Array<{ structured?: Record<string, unknown>; text?: string; isError?: boolean }>,
): ToolCaller & { calls: Array<{ tool: string; args: Record<string, unknown> }> } {
  const calls: Array<{ tool: string; args: Record<string, unknown> }> = [];
  return {
    calls,
    async call(tool, args) {
      calls.push({ tool, args });
      if (tool === 'steward_observe') return { isError: false, text: look };
      const next = executes.shift() ?? { structured: { execution: { status: 'confirmed' } } };
      return { isError: next.isError ?? false, text: next.text ?? '', structured: next.structured };
    },
  };
}

describe("Steward's side", () => {
  const look = fixture('v-covered.steward.txt');

  it('acts with the ref and the resource its look gave; a held step is approved once and asked for again with the same key', async () => {
    const c = client(look, [{ structured: { error: { code: 'APPROVAL_REQUIRED' } } }, { structured: { error: { code: 'IN_PROGRESS' } } }, { structured: { execution: { status: 'confirmed' } } }]);
    const approved: string[] = [];
    const actor = new StewardActor({ client: c, tabId: 7, keyPrefix: 'ep1', approve: async (a) => void approved.push(a), sleep: noSleep });
    const run = await runEpisode(
      WIDGET_PLANS.find((p) => p.task === 'v-covered-overlay')!,
      actor,
      { sleep: noSleep },
    );
    expect(run.done).toBe(true);
    expect(approved).toEqual(['dom.click']);
    expect(actor.approvals).toBe(1);
    const executes = c.calls.filter((x) => x.tool === 'steward_execute').map((x) => x.args);
    expect(executes).toHaveLength(3);
    expect(new Set(executes.map((x) => x.idempotency_key))).toEqual(new Set(['ep1-1']));
    expect(executes[0]).toEqual({ tab_id: 7, action: 'dom.click', resource: { type: 'page', id: 'localhost:35375/widgets/v-covered' }, input: { ref: 'e3' }, idempotency_key: 'ep1-1' });
  });

  it('names no resource when its look names none: Steward acts on the page its last look showed', async () => {
    const bare = look.replace(/(?<=<data>)page [^\n]*\n/, '');
    const c = client(bare, [{ structured: { execution: { status: 'confirmed' } } }]);
    const actor = new StewardActor({ client: c, tabId: 7, keyPrefix: 'ep2', approve: async () => undefined, sleep: noSleep });
    const run = await runEpisode({ task: 't', steps: [{ do: 'click', target: { name: 'Preview', said: '"Preview"' } }] }, actor, { sleep: noSleep });
    expect(run.done).toBe(true);
    const executes = c.calls.filter((x) => x.tool === 'steward_execute').map((x) => x.args);
    expect(executes[0]).toEqual({ tab_id: 7, action: 'dom.click', input: { ref: 'e3' }, idempotency_key: 'ep2-1' });
  });

  it("stops with Steward's own words when it refuses, and with the missing ref when the look has none", async () => {
    const refused = client(look, [
      { isError: true, text: 'Not done — INVALID_INPUT (action_id a1): input.ref: element e5 is covered\nWhat to do: …', structured: { error: { code: 'INVALID_INPUT' } } },
    ]);
    const run = await runEpisode(
      { task: 't', steps: [{ do: 'click', target: { name: 'Publish', said: '"Publish"' } }] },
      new StewardActor({ client: refused, tabId: 1, keyPrefix: 'k', approve: async () => undefined }),
      { sleep: noSleep },
    );
    expect(run.reason).toBe('click "Publish": INVALID_INPUT: input.ref: element e5 is covered');
    const textOnly = await runEpisode(
      { task: 't', steps: [{ do: 'click', target: { name: 'NEW', said: 'the badge' } }] },
      new StewardActor({ client: client(look, []), tabId: 1, keyPrefix: 'k', approve: async () => undefined }),
      {
        sleep: noSleep,
      },
    );
    expect(textOnly.reason).toBe('click the badge: no ref for the badge: the look shows it only as text "NEW"');
  });

  it('waits until Steward shows the new page, and reads that look as the first, not twice', async () => {
    const looks = ['<data>page lab.test/w</data>', look];
    let observes = 0;
    const c: ToolCaller = { call: async () => ({ isError: false, text: looks[Math.min(observes++, 1)]! }) };
    const actor = new StewardActor({ client: c, tabId: 1, keyPrefix: 'k', approve: async () => undefined, sleep: noSleep });
    expect(await actor.ready()).toBe(true);
    expect(observes).toBe(2);
    expect((await actor.look()).text).toBe(look);
    expect(observes).toBe(2);
  });

  it('goes on after an outcome Steward could not tell, and notes it', async () => {
    const c = client(look, [{ structured: { execution: { status: 'unknown' } }, text: 'Outcome unknown (action_id a2) on page x: check with steward_observe.' }]);
    const run = await runEpisode(
      WIDGET_PLANS.find((p) => p.task === 'v-covered-overlay')!,
      new StewardActor({ client: c, tabId: 1, keyPrefix: 'k', approve: async () => undefined }),
      { sleep: noSleep },
    );
    expect(run).toMatchObject({ done: true, notes: ['click "Preview": Steward could not tell the outcome'] });
  });
});
