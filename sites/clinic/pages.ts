/**
 * The clinic's single page: a small hash-routed app (#/book, #/appointments, #/messages) with
 * declarative WebMCP forms; the imperative tools are registered by `/assets/clinic.js`.
 */
import { html, raw } from '../http.ts';
import { errorPage, page } from '../ui.ts';
import { CALLBACK_TIMES, DOCTORS, SLOT_TIMES, SPECIALTY_LABELS, describeDays, localDate } from './store.ts';

const CLINIC = { brand: 'Riverside Family Clinic', accent: '#5b3fa8' } as const;

const CALLBACK_LABELS: Record<(typeof CALLBACK_TIMES)[number], string> = {
  morning: 'Morning (9–12)',
  afternoon: 'Afternoon (12–17)',
  evening: 'Evening (17–19)',
};

/*
 * The WebMCP pseudo-classes sit in rules of their own: a browser that does not know them drops
 * only that rule. The ::before label is generated content, not DOM text.
 */
const CLINIC_CSS = `
.layout{display:grid;gap:20px;grid-template-columns:repeat(auto-fit,minmax(320px,1fr))}
.layout .card{margin-bottom:0}
section[data-view]{display:block}
section[data-view][hidden]{display:none}
form{position:relative;border-radius:10px;transition:outline-color .2s}
#doctor-list{list-style:none;padding:0;margin:0;display:grid;gap:8px;grid-template-columns:repeat(auto-fit,minmax(200px,1fr))}
#doctor-list li{border:1px solid #e6e9ed;border-radius:8px;padding:10px 12px}
#message-list{list-style:none;padding:0;margin:0;display:grid;gap:12px}
#message-list li{border:1px solid #e6e9ed;border-radius:8px;padding:12px 14px;background:#fbfbfd}
#message-list .meta{font-size:13px;color:#5b6470}
.status-booked{color:#17603a;font-weight:600}
.status-cancelled{color:#8a929c;text-decoration:line-through}
td .small{margin:0}
`;
// Chrome's pseudo-classes, and the attributes Steward's polyfill sets at the same moments (a
// polyfill cannot add pseudo-classes). Separate rules: a browser that does not know
// :tool-form-active drops the whole rule it appears in.
const WEBMCP_CSS = `
form:tool-form-active{outline:3px dashed #d97706;outline-offset:6px;background:#fffaf0}
form:tool-form-active::before{content:"An AI agent is filling in this form";position:absolute;top:-14px;right:10px;font-size:12px;font-weight:600;color:#fff;background:#d97706;padding:2px 8px;border-radius:6px}
:tool-submit-active{outline:3px solid #d97706;outline-offset:2px}
form[data-tool-form-active]{outline:3px dashed #d97706;outline-offset:6px;background:#fffaf0}
form[data-tool-form-active]::before{content:"An AI agent is filling in this form";position:absolute;top:-14px;right:10px;font-size:12px;font-weight:600;color:#fff;background:#d97706;padding:2px 8px;border-radius:6px}
[data-tool-submit-active]{outline:3px solid #d97706;outline-offset:2px}
`;

export function clinicPage(): string {
  const today = localDate();
  const doctorOptions = DOCTORS.map((d) => html`<option value="${d.id}">${d.name} — ${SPECIALTY_LABELS[d.specialty]}</option>`);
  const timeOptions = SLOT_TIMES.map((t) => html`<option value="${t}">${t}</option>`);
  const doctors = DOCTORS.map(
    (d) =>
      html`<li data-doctor-id="${d.id}"><strong>${d.name}</strong><br><span class="muted">${SPECIALTY_LABELS[d.specialty]} · ${describeDays(d)} · ${d.times[0]}–${d.times[d.times.length - 1]}</span></li>`,
  );
  const nav = html`<nav aria-label="Main">
  <a href="#/book" data-nav="book">Book</a>
  <a href="#/appointments" data-nav="appointments">Appointments</a>
  <a href="#/messages" data-nav="messages">Patient messages</a>
</nav>`;

  const body = html`<p id="webmcp-status" class="note" role="status">Checking whether this browser offers WebMCP…</p>

<section data-view="book" id="view-book" aria-labelledby="book-heading">
  <div class="layout" style="margin-top:20px">
    <div class="card">
      <h1 id="book-heading">Book an appointment</h1>
      <form id="book-form" toolname="book_appointment" toolautosubmit
        tooldescription="Book a 30-minute appointment at Riverside Family Clinic for a patient. Choose the doctor, a date and a start time; check free times with find_open_slots first. Returns the new appointment id.">
        <div class="field"><label for="book-doctor">Doctor</label>
          <select id="book-doctor" name="doctor" required toolparamdescription="The doctor to see (doctor id)">${doctorOptions}</select></div>
        <div class="row">
          <div class="field"><label for="book-date">Date</label>
            <input id="book-date" type="date" name="date" required min="${today}" toolparamdescription="Appointment date; the doctor must work that weekday"></div>
          <div class="field"><label for="book-time">Time</label>
            <select id="book-time" name="time" required toolparamdescription="Start time of the 30-minute slot">${timeOptions}</select></div>
        </div>
        <div class="field"><label for="book-patient">Patient name</label>
          <input id="book-patient" name="patient_name" required autocomplete="name" maxlength="80" toolparamdescription="Full name of the patient"></div>
        <button type="submit" id="book-submit">Book appointment</button>
      </form>
      <p id="book-result" class="note" role="status" aria-live="polite"></p>
    </div>

    <div class="card">
      <h2 id="callback-heading">Request a callback</h2>
      <p class="muted">A nurse phones you back. If an assistant fills this in for you, check it and press the button yourself.</p>
      <form id="callback-form" toolname="request_callback"
        tooldescription="Ask the clinic to phone the patient back. The form is only filled in: the patient reviews it and sends it.">
        <div class="field"><label for="callback-phone">Phone number</label>
          <input id="callback-phone" type="tel" name="phone" required autocomplete="tel" maxlength="24" toolparamdescription="Phone number to call back, e.g. +1 555 0100"></div>
        <div class="field"><label for="callback-time">Preferred time</label>
          <select id="callback-time" name="preferred_time" required toolparamdescription="When the patient would like to be called">${CALLBACK_TIMES.map(
            (t) => html`<option value="${t}">${CALLBACK_LABELS[t]}</option>`,
          )}</select></div>
        <div class="field"><label for="callback-reason">What is it about? (optional)</label>
          <input id="callback-reason" name="reason" maxlength="500" toolparamdescription="Short reason for the call (optional)"></div>
        <button type="submit" id="callback-submit">Request callback</button>
      </form>
      <p id="callback-result" class="note" role="status" aria-live="polite"></p>
    </div>
  </div>

  <div class="card" style="margin-top:20px">
    <h2>Our doctors</h2>
    <ul id="doctor-list">${doctors}</ul>
  </div>
</section>

<section data-view="appointments" id="view-appointments" aria-labelledby="appointments-heading" hidden>
  <div class="card">
    <h1 id="appointments-heading">Appointments</h1>
    <table id="appointments-table">
      <thead><tr><th scope="col">Id</th><th scope="col">Patient</th><th scope="col">Doctor</th><th scope="col">Date</th><th scope="col">Time</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody id="appointments-body"><tr><td colspan="7" class="muted">Loading…</td></tr></tbody>
    </table>
    <p id="appointments-result" class="note" role="status" aria-live="polite"></p>
  </div>
  <div class="card">
    <h2>Reschedule an appointment</h2>
    <form id="reschedule-form" class="row">
      <div class="field"><label for="reschedule-id">Appointment</label>
        <select id="reschedule-id" name="appointment_id" required></select></div>
      <div class="field"><label for="reschedule-date">New date</label>
        <input id="reschedule-date" type="date" name="date" required min="${today}"></div>
      <div class="field"><label for="reschedule-time">New time</label>
        <select id="reschedule-time" name="time" required>${timeOptions}</select></div>
      <div class="field"><button type="submit" class="secondary">Reschedule</button></div>
    </form>
  </div>
</section>

<section data-view="messages" id="view-messages" aria-labelledby="messages-heading" hidden>
  <div class="card">
    <h1 id="messages-heading">Patient messages</h1>
    <p class="muted">Written by patients and shown exactly as received.</p>
    <ul id="message-list"><li class="muted">Loading…</li></ul>
  </div>
</section>`;

  return page({
    title: `Book an appointment — ${CLINIC.brand}`,
    brand: CLINIC.brand,
    accent: CLINIC.accent,
    nav,
    css: CLINIC_CSS,
    head: raw(`<style>${WEBMCP_CSS}</style>`),
    scripts: ['/assets/clinic.js'],
    body,
  });
}

export function clinicErrorPage(status: number, code: string, message: string): string {
  return errorPage(CLINIC, status, code, message, { href: '/#/book', label: 'Back to booking' });
}
