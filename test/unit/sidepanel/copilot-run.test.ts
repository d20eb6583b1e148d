import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { CopilotRun, type CopilotEnd } from '../../../src/protocol/copilot.ts';
import { budgetMeters, endText, isActive, runForTab, stepStatusLabel, upsertRun, viaLabel } from '../../../src/sidepanel/lib/copilot-run.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (the setup installs English before each test). */
const vietnamese = () => useMessageSource(catalogueSource(JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue, 'vi'));

function run(fields: Partial<CopilotRun> = {}): CopilotRun {
  return CopilotRun.parse({
    run_id: 'run-1',
    goal: 'cancel order ORD-1024',
    tabId: 7,
    origin: 'http://localhost:4100',
    agent_id: 'agent:copilot-run-1',
    token_id: 'tok_abcdefghijklmnop',
    model_label: 'Demo model (scripted)',
    status: 'running',
    started_at: 1_000,
    steps: [],
    budgets: { max_steps: 25, tokens_used: 1_234, token_budget: 200_000, elapsed_ms: 65_000, time_budget_ms: 600_000 },
    ...fields,
  });
}

const stopped = (reason: Extract<CopilotEnd, { kind: 'stopped' }>['reason'], detail = '') => ({ kind: 'stopped' as const, reason, detail });

describe('the co-pilot run as the panel words it', () => {
  it('shows a tab its active run before any newer finished one, and merges pushes by run id', () => {
    const active = run({ run_id: 'run-a', started_at: 1 });
    const later = run({ run_id: 'run-b', started_at: 2, status: 'finished' });
    const other = run({ run_id: 'run-c', started_at: 3, tabId: 8 });
    expect(runForTab([later, active, other], 7)?.run_id).toBe('run-a');
    expect(runForTab([later, other], 7)?.run_id).toBe('run-b');
    expect(runForTab([other], 7)).toBeUndefined();

    const list = upsertRun([later, active], { ...active, status: 'stopped' });
    expect(list.map((r) => [r.run_id, r.status])).toEqual([
      ['run-b', 'finished'],
      ['run-a', 'stopped'],
    ]);
    expect(isActive(list[1]!)).toBe(false);
    expect(isActive(run({ status: 'awaiting_approval' }))).toBe(true);
  });

  it('names each path as a person knows it', () => {
    expect(['site_contract', 'webmcp', 'adapter', 'dom', 'legacy_inference', undefined].map(viaLabel)).toEqual(['site contract', 'WebMCP tool', 'adapter', 'DOM', 'DOM', 'unknown path']);
  });

  /** The time meter's words for a run of `ms` with a budget of `ms`. */
  const timeMeter = (r: CopilotRun, ms: number) => budgetMeters({ ...r, budgets: { ...r.budgets, elapsed_ms: ms, time_budget_ms: ms } })[2]!.text;

  it('measures steps, tokens and time against the budgets, never past the top of a meter', () => {
    const r = run({
      steps: [
        { n: 1, status: 'succeeded' },
        { n: 2, status: 'thinking' },
      ],
    });
    expect(budgetMeters(r).map((m) => m.text)).toEqual(['2 of 25', '1,234 of 200,000', '1:05 of 10:00']);
    const [, , time] = budgetMeters(r, 700_000);
    expect(time).toMatchObject({ value: 600_000, max: 600_000, text: '10:00 of 10:00' });
    expect(timeMeter(r, 3_725_000)).toBe('1 h 2 min of 1 h 2 min');
  });

  it('says "verified" only when the worker verified, and says plainly when it did not', () => {
    expect(endText({ kind: 'done', verified: true, claim: 'Order ORD-1024 is cancelled.' }, run())).toEqual({ tone: 'ok', title: 'Done, verified', body: 'Order ORD-1024 is cancelled.' });
    const unverified = endText({ kind: 'done', verified: false, claim: 'It is cancelled.', why: 'no action was confirmed' }, run());
    expect(unverified.title).toBe('Done, but not verified');
    expect(unverified.body).toContain('Steward could not confirm it: no action was confirmed');
  });

  it('gives every stop reason in plain words: stuck asks the person to look, a question is the question', () => {
    const r = run();
    expect(endText(stopped('stuck', 'the same action three times'), r).body).toMatch(/^The co-pilot seems stuck \(the same action three times\)\. Please take a look/);
    expect(endText(stopped('ask_person', 'Which order do you mean?'), r)).toMatchObject({ title: 'The co-pilot has a question for you', body: 'Which order do you mean?' });
    expect(endText(stopped('token_budget'), r).body).toBe('It used 1,234 of its 200,000 tokens.');
    expect(endText(stopped('time_budget'), r).body).toBe('It ran out of its 10:00 time budget.');
    expect(endText(stopped('taken_over'), r).body).toContain('left exactly as it is');
    const reasons = [
      'max_steps',
      'stuck',
      'failures',
      'time_budget',
      'token_budget',
      'ask_person',
      'model_error',
      'denied_by_person',
      'stopped_by_person',
      'taken_over',
      'tab_closed',
      'error',
    ] as const;
    for (const reason of reasons) expect(endText(stopped(reason, 'x'), r).title, reason).not.toContain('_');
  });

  it('words the person’s own decisions as theirs, never as a failure', () => {
    const r = run();
    const denied = endText(stopped('denied_by_person', 'You denied orders.cancel on order ORD-1024, so the co-pilot stopped there.'), r);
    expect(denied).toEqual({
      tone: 'neutral',
      title: 'Denied by you',
      body: 'You denied orders.cancel on order ORD-1024, so the co-pilot stopped there. Nothing more will be done; the page stays as it is.',
    });
    expect(endText(stopped('stopped_by_person'), r)).toMatchObject({ tone: 'neutral', title: 'Stopped by you' });
    expect(stepStatusLabel('denied')).toBe('Denied by you');
    expect(stepStatusLabel('stopped')).toBe('Stopped by you');
    expect(isActive(run({ status: 'awaiting_answer' }))).toBe(true);
  });

  it('speaks Vietnamese in a Vietnamese browser, with its own digit grouping, the worker’s detail from its phrase', () => {
    vietnamese();
    const r = run({ steps: [{ n: 1, status: 'succeeded' }] });
    expect(budgetMeters(r).map((m) => [m.label, m.text])).toEqual([
      ['Số bước', '1 trên 25'],
      ['Token', '1.234 trên 200.000'],
      ['Thời gian', '1:05 trên 10:00'],
    ]);
    expect(endText(stopped('token_budget'), r)).toEqual({ tone: 'bad', title: 'Đã dừng: hết token', body: 'Trợ lý đã dùng 1.234 trên 200.000 token cho phép.' });
    expect(endText(stopped('stuck', 'the same action three times'), r).body).toMatch(/^Trợ lý có vẻ bị mắc kẹt \(the same action three times\)\. /);
    expect(endText({ kind: 'done', verified: false, claim: 'It is cancelled.' }, r).body).toBe('Trợ lý cho biết: “It is cancelled.” Steward không xác nhận được điều này. Hãy tự kiểm tra trang.');
    // The worker's detail from its phrase, in Vietnamese; the model's own words (its claim) as they are.
    const denied = {
      ...stopped('denied_by_person', 'You denied orders.cancel on order ORD-1024, so the co-pilot stopped there.'),
      detail_said: { code: 'run_denied', params: { action: 'orders.cancel', type: 'order', id: 'ORD-1024' } },
    };
    expect(endText(denied, r).body).toBe('Bạn đã từ chối orders.cancel trên order ORD-1024, nên trợ lý dừng lại ở đó. Sẽ không làm gì thêm; trang vẫn giữ nguyên.');
    const stuck = {
      ...stopped('stuck', 'the model asked for list_doctors 3 times in a row; please take a look'),
      detail_said: { code: 'run_stuck_act', params: { action: 'list_doctors', times: 3 } },
    };
    expect(endText(stuck, r).body).toMatch(/^Trợ lý có vẻ bị mắc kẹt \(mô hình đã yêu cầu list_doctors 3 lần liên tiếp; hãy xem lại\)\. /);
    const unverified = { kind: 'done' as const, verified: false, claim: 'It is cancelled.', why: 'not verified: …', why_said: { code: 'run_done_unverified' } };
    expect(endText(unverified, r).body).toContain('Steward không xác nhận được điều này: không có thao tác nào được xác nhận');
    // A phrase the panel does not know: the worker's English.
    expect(endText({ ...stopped('error', 'Steward failed: boom'), detail_said: { code: 'from_a_newer_worker' } }, r).body).toBe('Steward failed: boom');
    expect(stepStatusLabel('denied')).toBe('Bạn đã từ chối');
    expect(viaLabel('webmcp')).toBe('công cụ WebMCP');
    expect(timeMeter(r, 3_725_000)).toBe('1 giờ 2 phút trên 1 giờ 2 phút');
  });
});
