import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../../src/background/tools/registry.ts';
import { PERSON_AGENT_ID, outcomeOf, runToolFromPanel, type PanelRunDeps } from '../../../../src/background/tools/run-from-panel.ts';
import type { ToolDescriptor } from '../../../../src/protocol/webmcp.ts';
import { ORIGIN, harness, type Harness } from '../../pipeline/fakes.ts';

const base = { description: '', kind: 'imperative' as const };
const listDoctors: ToolDescriptor = {
  ...base,
  name: 'list_doctors',
  inputSchema: { type: 'object', properties: { specialty: { type: 'string', enum: ['cardiology'] } } },
  annotations: { readOnlyHint: true },
};
const cancel: ToolDescriptor = { ...base, name: 'cancel', inputSchema: { type: 'object' }, annotations: { consequentialHint: true } };
const unannotated: ToolDescriptor = { ...base, name: 'mystery', inputSchema: { type: 'object' }, annotations: {} };
const refused: ToolDescriptor = {
  ...base,
  name: 'lookup',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  schemaError: 'pattern "^(a+)+$" could take exponential time',
};

async function setup(...tools: ToolDescriptor[]): Promise<{ h: Harness; deps: PanelRunDeps }> {
  const h = await harness();
  h.shop.tools = tools;
  const registry = new ToolRegistry();
  registry.report({ tabId: 1, frameId: 0, origin: ORIGIN, url: `${ORIGIN}/orders/ORD-1024`, api: 'native', tools }, new Date());
  const deps: PanelRunDeps = {
    registry,
    pipeline: async () => h.pipeline,
    observeTab: async () => ({ ok: true, state: h.shop.observation('ORD-1024')! }),
    sessionFor: async (agentId, tabId) => `ses_${agentId}_${tabId}`,
  };
  return { h, deps };
}

const personEntries = async (h: Harness) => (await h.pipeline.deps.audit.entries()).filter((e) => e.agent_id === PERSON_AGENT_ID);

describe('runToolFromPanel: the person’s Run goes through the pipeline', () => {
  it('runs a read-only tool as the person’s agent: journaled, dispatched and audited, the click recorded', async () => {
    const { h, deps } = await setup(listDoctors);
    const outcome = await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: 'list_doctors', input: { specialty: 'cardiology' } });
    // Output is data by default, though this tool declares no untrustedContentHint.
    expect(outcome).toMatchObject({ ok: true, result: 'ran list_doctors', untrusted: true, action_id: expect.stringMatching(/^act_/) });
    expect(h.shop.calls.execute.map((c) => [c.action, c.input])).toEqual([['list_doctors', { specialty: 'cardiology' }]]);

    const entries = await personEntries(h);
    const kinds = entries.map((e) => e.kind);
    // The run's own token is minted and revoked around it, both recorded.
    expect(kinds).toEqual(['token', 'proposal', 'observation', 'dispatch', 'confirmation', 'token']);
    const proposal = entries.find((e) => e.kind === 'proposal')!;
    expect(proposal).toMatchObject({ action: 'list_doctors', details: { rationale: expect.stringContaining('pressed Run') } });
    const journal = await h.pipeline.deps.journal.action(ok(outcome) ? outcome.action_id! : '');
    expect(journal).toMatchObject({ agent_id: PERSON_AGENT_ID, state: 'confirmed' });
  });

  it('uses a token for this one tool on this origin, revoked once the run ends', async () => {
    const { h, deps } = await setup(listDoctors);
    await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: 'list_doctors', input: {} });
    const tokens = await h.pipeline.deps.tokens.list(PERSON_AGENT_ID);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ scope: ['webmcp:list_doctors'], origins: [ORIGIN], revoked_at: expect.any(String) });
  });

  it.each([cancel, unannotated])('refuses a tool that is not read-only ($name) without touching the page', async (tool) => {
    const { h, deps } = await setup(tool);
    const outcome = await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: tool.name, input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED', retryable: false } });
    expect(h.shop.calls.execute).toEqual([]);
  });

  it('checks the input against the tool schema in the pipeline: refused, audited, never run', async () => {
    const { h, deps } = await setup(listDoctors);
    const outcome = await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: 'list_doctors', input: { specialty: 'astrology' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('specialty') } });
    expect(h.shop.calls.execute).toEqual([]);
    expect((await personEntries(h)).map((e) => e.kind)).toContain('proposal');
  });

  it('answers INVALID_TOOL_SCHEMA for a tool whose schema Steward refuses', async () => {
    const { h, deps } = await setup(refused);
    const outcome = await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: 'lookup', input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_TOOL_SCHEMA', message: expect.stringContaining('exponential') } });
    expect(h.shop.calls.execute).toEqual([]);
  });

  it('answers TOOL_NOT_FOUND for a tool the frame never declared, and for embedded frames', async () => {
    const { deps } = await setup(listDoctors);
    expect(await runToolFromPanel(deps, { tabId: 1, frameId: 0, name: 'nope', input: {} })).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    deps.registry.report({ tabId: 1, frameId: 2, origin: ORIGIN, url: `${ORIGIN}/frame`, api: 'native', tools: [listDoctors] }, new Date());
    expect(await runToolFromPanel(deps, { tabId: 1, frameId: 2, name: 'list_doctors', input: {} })).toMatchObject({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: expect.stringContaining('embedded frame') },
    });
    deps.registry.report({ tabId: 1, frameId: 4, origin: 'https://ads.test', url: 'https://ads.test/frame', api: 'native', tools: [{ ...listDoctors, name: 'ad_lookup' }] }, new Date());
    expect(await runToolFromPanel(deps, { tabId: 1, frameId: 4, name: 'ad_lookup', input: {} })).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('runs a tool only a same-origin embedded frame registered (natively), through the pipeline', async () => {
    const storeHours: ToolDescriptor = { ...listDoctors, name: 'store_hours' };
    const { h, deps } = await setup(listDoctors, storeHours);
    deps.registry.report({ tabId: 1, frameId: 0, origin: ORIGIN, url: `${ORIGIN}/orders/ORD-1024`, api: 'native', tools: [listDoctors] }, new Date());
    deps.registry.report({ tabId: 1, frameId: 3, origin: ORIGIN, url: `${ORIGIN}/widget`, api: 'native', tools: [storeHours] }, new Date());
    expect(await runToolFromPanel(deps, { tabId: 1, frameId: 3, name: 'store_hours', input: {} })).toMatchObject({ ok: true, result: 'ran store_hours' });
    expect((await personEntries(h)).some((e) => e.action === 'store_hours')).toBe(true);
  });
});

describe('a run that ended without a result, as the panel shows it', () => {
  const pageError = { code: 'SLOT_TAKEN', message: 'No slot', truncated: false, untrusted: true as const };
  const resource = { type: 'page', id: '/x' };

  it('failed or unknown with a reason is an error carrying the status and the page’s words, never an empty result', () => {
    const error = { code: 'EXECUTION_FAILED' as const, message: 'The page’s tool failed', retryable: false, recovery_hint: 'Re-plan.', details: { page_error: pageError, status: 'failed' } };
    expect(outcomeOf({ action_id: 'act_1', resource, execution: { status: 'failed', certainty: 'inferred', error } })).toEqual({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'The page’s tool failed', retryable: false, recovery_hint: 'Re-plan.', details: { status: 'failed', action_id: 'act_1', page_error: pageError } },
    });
    const timeout = { code: 'TIMEOUT' as const, message: "The page's tool did not answer within 1.5 s", retryable: false, recovery_hint: 'Re-observe.' };
    expect(outcomeOf({ action_id: 'act_2', resource, execution: { status: 'unknown', certainty: 'unknown', error: timeout } })).toMatchObject({
      ok: false,
      error: { code: 'TIMEOUT', message: expect.stringContaining('did not answer within 1.5 s'), details: { status: 'unknown', action_id: 'act_2' } },
    });
  });

  it('an unknown outcome without a reason keeps what the tool answered', () => {
    expect(outcomeOf({ action_id: 'act_3', resource, execution: { status: 'unknown', certainty: 'unknown' }, output: { text: 'hi', truncated: false, untrusted: true } })).toMatchObject({
      ok: true,
      result: 'hi',
    });
  });
});

function ok<T extends { ok: boolean }>(o: T): o is T & { ok: true } {
  return o.ok;
}
