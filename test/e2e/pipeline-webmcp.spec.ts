import { test, expect } from '../harness/fixtures.ts';
import { freeSlot } from '../harness/copilot-driver.ts';
import { approve, control, data, mint, observe, pendingCard, submit } from '../harness/pipeline-helpers.ts';

/**
 * WebMCP actions through the pipeline on the clinic (Chromium's native WebMCP): a read-only
 * tool runs inside the token's scope without approval; a consequential one waits for the side
 * panel; a declarative form that waits for the person is reported as accepted, never as done.
 * The clinic server's own records say what happened.
 */

interface ClinicState {
  appointments: Array<{ id: string; status: string; doctor_id?: string; date?: string; time?: string }>;
  callbacks: unknown[];
  tool_calls: Array<{ method: string; path: string; source: string }>;
}

async function clinicState(url: string): Promise<ClinicState> {
  return (await (await fetch(new URL('/__demo/state', url))).json()) as ClinicState;
}

test.describe('WebMCP tools through the pipeline', () => {
  test('list_doctors runs without approval; cancel_appointment runs once, after the side panel approves', async ({ steward, sites, openPanel, tabIdOf }) => {
    const clinic = new URL(sites.urls.clinic).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.clinic}#/appointments`);
    await expect(page.locator('#appointments-body')).toContainText('APT-1001');
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const token = await mint(panel, { scope: ['webmcp:list_doctors', 'webmcp:cancel_appointment'], resource_scope: 'page:*', origins: [clinic] });
    let observed = await observe(panel, tabId);
    await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('cancel_appointment');
    const resource = observed.resource;

    // Read-only inside scope: runs directly, the page's own result comes back marked as data.
    const listed = (await data(submit(panel, { token, tabId, request: { action: 'list_doctors', resource, input: {}, idempotency_key: 'e2e-list-doctors' } }))).result as Record<string, unknown>;
    expect(listed).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, source: 'webmcp', output: { untrusted: true } });
    const doctors = (await (await fetch(new URL('/api/doctors', sites.urls.clinic))).json()) as { doctors: Array<{ name: string }> };
    expect((listed.output as { text: string }).text).toContain(doctors.doctors[0]!.name);
    expect(await data(control(panel, { type: 'panel/approvals' }))).toEqual({ pending: [] });

    // Consequential: a card first; the clinic is untouched until the person approves.
    const cancelling = submit(panel, { token, tabId, request: { action: 'cancel_appointment', resource, input: { appointment_id: 'APT-1001' }, idempotency_key: 'e2e-cancel-apt' } });
    const card = await pendingCard(panel, 'cancel_appointment');
    expect(card.reasons.map((r) => r.code)).toContain('consequential');
    expect((await clinicState(sites.urls.clinic)).appointments.find((a) => a.id === 'APT-1001')?.status).toBe('booked');
    expect(await data(approve(panel, card))).toMatchObject({ status: 'approved' });
    const cancelled = (await data(cancelling)).result;
    expect(cancelled).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, source: 'webmcp' });

    const state = await clinicState(sites.urls.clinic);
    expect(state.appointments.find((a) => a.id === 'APT-1001')?.status).toBe('cancelled');
    expect(state.tool_calls.filter((c) => c.source === 'tool:cancel_appointment')).toHaveLength(1);
    expect(state.tool_calls.filter((c) => c.source === 'tool:list_doctors').length).toBeGreaterThanOrEqual(1);

    // Out of scope: the token does not grant reschedule_appointment.
    const refused = (
      await data(
        submit(panel, {
          token,
          tabId,
          request: { action: 'reschedule_appointment', resource, input: { appointment_id: 'APT-1002', date: '2030-01-07', time: '10:00' }, idempotency_key: 'e2e-resched' },
        }),
      )
    ).result;
    expect(refused).toMatchObject({ error: { code: 'SCOPE_DENIED' } });
    expect(await data(control(panel, { type: 'panel/audit-verify' }))).toMatchObject({ ok: true });
  });

  test('a declarative form that waits for the person is accepted, not done, and sends nothing', async ({ steward, sites, openPanel, tabIdOf }) => {
    const clinic = new URL(sites.urls.clinic).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.clinic}#/book`);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const token = await mint(panel, { scope: ['webmcp:request_callback'], resource_scope: 'page:*', origins: [clinic] });
    let observed = await observe(panel, tabId);
    await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('request_callback');

    const submitted = submit(panel, {
      token,
      tabId,
      request: { action: 'request_callback', resource: observed.resource, input: { phone: '+1 555 0100', preferred_time: 'morning' }, idempotency_key: 'e2e-callback' },
    });
    await data(approve(panel, await pendingCard(panel, 'request_callback')));
    const result = (await data(submitted)).result;
    expect(result).toMatchObject({ execution: { status: 'accepted', certainty: 'pending_confirmation' } });
    // Filled in for the person to check; nothing was sent to the clinic.
    await expect(page.locator('#callback-phone')).toHaveValue('+1 555 0100');
    expect((await clinicState(sites.urls.clinic)).callbacks).toHaveLength(0);
  });

  test('a declarative tool is confirmed by the page’s answer, and a booking the clinic refuses is never reported as done', async ({ steward, sites, openPanel, tabIdOf }) => {
    const clinic = new URL(sites.urls.clinic).origin;
    const page = await steward.context.newPage();
    await page.goto(`${sites.urls.clinic}#/book`);
    const panel = await openPanel(page);
    const tabId = await tabIdOf(page);
    const token = await mint(panel, { scope: ['webmcp:book_appointment'], resource_scope: 'page:*', origins: [clinic] });
    let observed = await observe(panel, tabId);
    await expect.poll(async () => (observed = await observe(panel, tabId)).available_actions).toContain('book_appointment');
    const date = await freeSlot(sites.urls.clinic, 'dr-okafor', '16:00');
    const booking = (key: string, patient_name: string) => {
      const sent = submit(panel, {
        token,
        tabId,
        request: { action: 'book_appointment', resource: observed.resource, input: { doctor: 'dr-okafor', date, time: '16:00', patient_name }, idempotency_key: key },
      });
      return sent;
    };

    const first = booking('e2e-book-1', 'Jordan Lee');
    await data(approve(panel, await pendingCard(panel, 'book_appointment')));
    expect((await data(first)).result).toMatchObject({ execution: { status: 'confirmed', verified_by: 'tool_result' }, source: 'webmcp' });

    // The same slot again: the clinic refuses it, and its page tells the agent so (isError).
    const second = booking('e2e-book-2', 'Sam Doe');
    await data(approve(panel, await pendingCard(panel, 'book_appointment')));
    const refused = (await data(second)).result as { execution?: { status: string }; error?: { code: string } };
    expect(refused.execution?.status ?? refused.error?.code).not.toBe('confirmed');
    expect(refused.error?.code ?? refused.execution?.status).toMatch(/EXECUTION_FAILED|failed|unknown/);
    const slot = (await clinicState(sites.urls.clinic)).appointments.filter((a) => a.doctor_id === 'dr-okafor' && a.date === date && a.time === '16:00' && a.status === 'booked');
    expect(slot).toHaveLength(1);
  });
});
