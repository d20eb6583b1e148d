/** The clinic's routes: the page, its JSON API and the `/__demo/` test controls. */
import { z } from 'zod';
import { RequestLog, Router, parseBody, queryObject, sendHtml, sendJson, sendScript, validate, type RequestContext } from '../http.ts';
import type { DemoSite } from '../site.ts';
import { CLINIC_SCRIPT } from './client.ts';
import { clinicErrorPage, clinicPage } from './pages.ts';
import { CALLBACK_TIMES, ClinicStore, DOCTORS, SLOT_TIMES, SPECIALTIES, isCalendarDate, publicDoctor } from './store.ts';

const DoctorId = z.enum(DOCTORS.map((d) => d.id) as [string, ...string[]], {
  error: `must be one of ${DOCTORS.map((d) => d.id).join(', ')}`,
});
const CalendarDate = z.string().refine(isCalendarDate, { message: 'must be a calendar date in YYYY-MM-DD form' });
const SlotTime = z.enum(SLOT_TIMES, { error: `must be one of ${SLOT_TIMES.join(', ')}` });
const AppointmentId = z.string().regex(/^APT-\d+$/, 'must look like APT-1001');

const BookBody = z.object({
  doctor: DoctorId,
  date: CalendarDate,
  time: SlotTime,
  patient_name: z.string().trim().min(2, 'must be at least 2 characters').max(80),
});
const RescheduleBody = z.object({ date: CalendarDate, time: SlotTime });
const CancelBody = z.object({}).loose();
const CallbackBody = z.object({
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 ()-]{4,22}$/, 'must be a phone number such as +1 555 0100'),
  preferred_time: z.enum(CALLBACK_TIMES),
  reason: z.string().trim().max(500).optional(),
});
const DoctorsQuery = z.object({ specialty: z.enum(SPECIALTIES).optional() });
const SlotsQuery = z.object({ doctor: z.string().min(1, 'is required'), date: CalendarDate });
const DemoStatusBody = z.object({ status: z.enum(['booked', 'cancelled']) }).strict();

function source(ctx: RequestContext): string | null {
  const value = ctx.req.headers['x-demo-source'];
  return typeof value === 'string' ? value.slice(0, 200) : null;
}

function appointmentId(ctx: RequestContext): string {
  return validate(AppointmentId, ctx.params.id, 'Appointment id');
}

const CLINIC_TITLE = 'Riverside Family Clinic (WebMCP: declarative forms + imperative tools)';

export function createClinic(): DemoSite {
  const store = new ClinicStore();
  const log = new RequestLog();
  const router = new Router({
    renderHtmlError: (e) => clinicErrorPage(e.status, e.code, e.message),
    onRequestLogged: log.add,
  });

  router.get('/', (ctx) => sendHtml(ctx.res, 200, clinicPage()));
  router.get('/assets/clinic.js', (ctx) => sendScript(ctx.res, CLINIC_SCRIPT));

  router.get('/api/doctors', (ctx) => {
    const { specialty } = validate(DoctorsQuery, queryObject(ctx.url), 'Query');
    sendJson(ctx.res, 200, { doctors: store.doctors(specialty).map(publicDoctor) });
  });
  router.get('/api/slots', (ctx) => {
    const { doctor, date } = validate(SlotsQuery, queryObject(ctx.url), 'Query');
    const d = store.doctor(doctor);
    sendJson(ctx.res, 200, { doctor: d.id, doctor_name: d.name, date, ...store.openSlots(d.id, date) });
  });
  router.get('/api/appointments', (ctx) => sendJson(ctx.res, 200, { appointments: store.list() }));
  router.get('/api/appointments/:id', (ctx) => sendJson(ctx.res, 200, { appointment: store.get(appointmentId(ctx)) }));
  router.post('/api/appointments', async (ctx) => {
    const body = await parseBody(ctx, BookBody);
    sendJson(ctx.res, 201, { appointment: store.book(body, source(ctx)) });
  });
  router.post('/api/appointments/:id/cancel', async (ctx) => {
    const id = appointmentId(ctx);
    store.get(id);
    await parseBody(ctx, CancelBody);
    sendJson(ctx.res, 200, { appointment: store.cancel(id, source(ctx)) });
  });
  router.post('/api/appointments/:id/reschedule', async (ctx) => {
    const id = appointmentId(ctx);
    store.get(id);
    const body = await parseBody(ctx, RescheduleBody);
    sendJson(ctx.res, 200, { appointment: store.reschedule(id, body, source(ctx)) });
  });
  router.post('/api/callbacks', async (ctx) => {
    const body = await parseBody(ctx, CallbackBody);
    sendJson(ctx.res, 201, { callback: store.requestCallback(body, source(ctx)) });
  });
  router.get('/api/messages', (ctx) => sendJson(ctx.res, 200, { messages: store.messages() }));

  // Test-only controls ---------------------------------------------------------------------------
  const state = (): Record<string, unknown> => {
    const requests = log.list();
    return {
      site: 'clinic',
      generated_at: new Date().toISOString(),
      ...store.snapshot(),
      /** API calls made by a WebMCP tool or an agent-filled form (from the `x-demo-source` header). */
      tool_calls: requests.filter((r) => r.source?.startsWith('tool:') || r.source?.startsWith('agent-form:')),
      requests,
      request_total: log.total,
    };
  };
  router.get('/__demo/state', (ctx) => sendJson(ctx.res, 200, state()));
  router.post('/__demo/reset', (ctx) => {
    store.reset();
    log.clear();
    sendJson(ctx.res, 200, { ok: true, site: 'clinic' });
  });
  router.post('/__demo/appointments/:id', async (ctx) => {
    const id = appointmentId(ctx);
    store.get(id);
    const { status } = await parseBody(ctx, DemoStatusBody);
    sendJson(ctx.res, 200, { ok: true, appointment: store.demoSetStatus(id, status) });
  });

  return {
    name: 'clinic',
    title: CLINIC_TITLE,
    listener: router.listener,
    reset: () => {
      store.reset();
      log.clear();
    },
    state,
  };
}
