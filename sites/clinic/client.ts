/**
 * The clinic's browser script, served as `/assets/clinic.js`. Plain ES2020, no build step.
 *
 * Works with the native WebMCP API (`document.modelContext`, Chromium with its WebMCP feature on), with
 * Steward's polyfill (same API, installed before page scripts run), and without either (a
 * visible "WebMCP not available" note; the forms still work for people).
 *
 * Every API call carries an `x-demo-source` header (`tool:<name>`, `agent-form:<name>`,
 * `human-form:<name>`, `page:<what>`) so the server's request log shows who caused it.
 */
import { SLOT_TIMES, SPECIALTIES } from './store.ts';

export const CLINIC_SCRIPT = `(() => {
  'use strict';
  const SPECIALTIES = ${JSON.stringify(SPECIALTIES)};
  const SLOT_TIMES = ${JSON.stringify(SLOT_TIMES)};
  const VIEWS = ['book', 'appointments', 'messages'];
  const TITLES = { book: 'Book an appointment', appointments: 'Appointments', messages: 'Patient messages' };
  const BRAND = 'Riverside Family Clinic';

  const mc = document.modelContext;
  const hasWebMcp = !!mc && typeof mc.registerTool === 'function';
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------------------------------
  // Server API

  async function api(method, path, body, source) {
    const headers = { accept: 'application/json', 'x-demo-source': source };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (_) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.error && data.error.message) || ('HTTP ' + res.status));
      err.code = (data && data.error && data.error.code) || ('HTTP_' + res.status);
      throw err;
    }
    return data;
  }

  function describe(a) {
    return a.id + ' with ' + a.doctor_name + ' on ' + a.date + ' at ' + a.time + ' for ' + a.patient_name;
  }

  function show(el, kind, text) {
    if (!el) return;
    el.className = 'note ' + kind;
    el.textContent = text;
  }

  // ---------------------------------------------------------------------------------------
  // Declarative tools: the forms (toolname / tooldescription / toolautosubmit in the HTML)

  function formData(form) {
    const out = {};
    new FormData(form).forEach((value, key) => { out[key] = typeof value === 'string' ? value.trim() : value; });
    return out;
  }

  function handleToolForm(form, options) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const agent = event.agentInvoked === true;
      const source = (agent ? 'agent-form:' : 'human-form:') + form.getAttribute('toolname');
      const data = formData(form);
      if (options.clean) options.clean(data);
      const result = api('POST', options.path, data, source).then(
        (body) => {
          const text = options.success(body);
          show(options.output, 'success', text);
          // Resetting the form would cancel a pending agent invocation (Chromium reports
          // "Tool execution cancelled by a form reset"), so only a person's form is cleared.
          if (!agent) form.reset();
          refreshVisible();
          return text;
        },
        (err) => {
          const text = options.failure + ' (' + err.code + '): ' + err.message;
          show(options.output, 'error', text);
          // An agent is told it failed the MCP way (isError), not only in words it would have to read.
          return agent ? JSON.stringify(errorResult(text)) : text;
        },
      );
      if (agent && typeof event.respondWith === 'function') event.respondWith(result);
    });
  }

  const bookForm = $('book-form');
  if (bookForm) {
    handleToolForm(bookForm, {
      path: '/api/appointments',
      output: $('book-result'),
      success: (body) => 'Booked ' + describe(body.appointment) + '.',
      failure: 'Booking failed',
    });
  }
  const callbackForm = $('callback-form');
  if (callbackForm) {
    handleToolForm(callbackForm, {
      path: '/api/callbacks',
      output: $('callback-result'),
      clean: (data) => { if (!data.reason) delete data.reason; },
      success: (body) => 'Callback request ' + body.callback.id + ' received: the clinic will call ' + body.callback.phone + ' in the ' + body.callback.preferred_time + '.',
      failure: 'Callback request failed',
    });
  }

  // ---------------------------------------------------------------------------------------
  // Imperative tools

  const textResult = (text) => ({ content: [{ type: 'text', text: text }] });
  const errorResult = (text) => ({ content: [{ type: 'text', text: text }], isError: true });

  function args(input) {
    if (typeof input === 'string') {
      try { return input.trim() ? JSON.parse(input) : {}; } catch (_) { return null; }
    }
    return input && typeof input === 'object' ? input : {};
  }

  function requireStrings(input, names) {
    if (!input) return 'Input must be a JSON object.';
    for (const name of names) {
      if (typeof input[name] !== 'string' || input[name].trim() === '') return 'Missing required string "' + name + '".';
    }
    return null;
  }

  function tool(name, def) {
    return {
      name: name,
      description: def.description,
      inputSchema: def.inputSchema,
      annotations: def.annotations,
      execute: async (raw) => {
        const input = args(raw);
        const problem = requireStrings(input, def.required || []);
        if (problem) return errorResult('Invalid input for ' + name + ': ' + problem);
        try {
          return textResult(await def.run(input));
        } catch (err) {
          return errorResult(name + ' failed (' + (err.code || 'ERROR') + '): ' + err.message);
        }
      },
    };
  }

  const DATE = { type: 'string', format: 'date', description: 'Calendar date, YYYY-MM-DD' };
  const APPOINTMENT_ID = { type: 'string', pattern: '^APT-[0-9]+$', description: 'Appointment id, e.g. APT-1001' };

  const listDoctors = tool('list_doctors', {
    description: 'List the clinic doctors (id, name, specialty, working days and hours). Optionally only one specialty.',
    inputSchema: {
      type: 'object',
      properties: { specialty: { type: 'string', enum: SPECIALTIES, description: 'Only doctors of this specialty' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    run: async (input) => {
      const query = input.specialty ? '?specialty=' + encodeURIComponent(input.specialty) : '';
      const body = await api('GET', '/api/doctors' + query, undefined, 'tool:list_doctors');
      return JSON.stringify(body.doctors);
    },
  });

  const findOpenSlots = tool('find_open_slots', {
    description: 'Free 30-minute start times for one doctor on one date.',
    inputSchema: {
      type: 'object',
      properties: {
        doctor: { type: 'string', description: 'Doctor id from list_doctors, e.g. dr-okafor' },
        date: DATE,
      },
      required: ['doctor', 'date'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    required: ['doctor', 'date'],
    run: async (input) => {
      const query = '?doctor=' + encodeURIComponent(input.doctor) + '&date=' + encodeURIComponent(input.date);
      const body = await api('GET', '/api/slots' + query, undefined, 'tool:find_open_slots');
      return JSON.stringify(body);
    },
  });

  const readMessages = tool('read_patient_messages', {
    description: 'Read the messages patients sent to the clinic (free text written by patients).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    run: async () => {
      const body = await api('GET', '/api/messages', undefined, 'tool:read_patient_messages');
      return JSON.stringify(body.messages);
    },
  });

  const cancelAppointment = tool('cancel_appointment', {
    description: 'Cancel a booked appointment. The slot is released; this cannot be undone.',
    inputSchema: {
      type: 'object',
      properties: { appointment_id: APPOINTMENT_ID },
      required: ['appointment_id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, consequentialHint: true },
    required: ['appointment_id'],
    run: async (input) => {
      const id = input.appointment_id.trim();
      const body = await api('POST', '/api/appointments/' + encodeURIComponent(id) + '/cancel', {}, 'tool:cancel_appointment');
      refreshVisible();
      return 'Cancelled ' + describe(body.appointment) + '.';
    },
  });

  // Registered only while the appointments view is shown.
  const rescheduleAppointment = tool('reschedule_appointment', {
    description: 'Move a booked appointment to another date and time with the same doctor.',
    inputSchema: {
      type: 'object',
      properties: {
        appointment_id: APPOINTMENT_ID,
        date: DATE,
        time: { type: 'string', enum: SLOT_TIMES, description: 'New start time (HH:MM)' },
      },
      required: ['appointment_id', 'date', 'time'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, consequentialHint: true },
    required: ['appointment_id', 'date', 'time'],
    run: async (input) => {
      const id = input.appointment_id.trim();
      const body = await api('POST', '/api/appointments/' + encodeURIComponent(id) + '/reschedule', { date: input.date, time: input.time }, 'tool:reschedule_appointment');
      refreshVisible();
      return 'Rescheduled ' + describe(body.appointment) + '.';
    },
  });

  function register(def, signal) {
    if (!hasWebMcp) return;
    try {
      const handle = signal ? mc.registerTool(def, { signal: signal }) : mc.registerTool(def);
      if (handle && typeof handle.then === 'function') {
        handle.catch((err) => console.warn('[clinic] registerTool(' + def.name + ') failed:', err));
      } else if (signal && handle && typeof handle.unregister === 'function') {
        // Older polyfills return a handle instead of honouring the signal.
        signal.addEventListener('abort', () => handle.unregister(), { once: true });
      }
    } catch (err) {
      console.warn('[clinic] registerTool(' + def.name + ') failed:', err);
    }
  }

  [listDoctors, findOpenSlots, readMessages, cancelAppointment].forEach((def) => register(def));

  const status = $('webmcp-status');
  if (status) {
    if (hasWebMcp) {
      show(status, '', 'WebMCP available: AI agents can use this page\\'s tools. A form an agent is filling in is outlined in orange.');
    } else {
      show(status, 'warn', 'WebMCP not available in this browser: the page works as usual, but AI agents cannot see its tools.');
    }
  }

  // ---------------------------------------------------------------------------------------
  // Views (hash routing)

  let currentView = null;
  let viewController = null;

  function viewFromHash() {
    const match = /^#\\/([a-z]+)/.exec(location.hash);
    const name = match ? match[1] : 'book';
    return VIEWS.indexOf(name) >= 0 ? name : 'book';
  }

  function route() {
    const view = viewFromHash();
    if (view === currentView) return;
    currentView = view;
    document.querySelectorAll('section[data-view]').forEach((section) => {
      section.hidden = section.getAttribute('data-view') !== view;
    });
    document.querySelectorAll('[data-nav]').forEach((link) => {
      if (link.getAttribute('data-nav') === view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    });
    document.title = TITLES[view] + ' — ' + BRAND;
    if (viewController) {
      viewController.abort();
      viewController = null;
    }
    if (view === 'appointments') {
      viewController = new AbortController();
      register(rescheduleAppointment, viewController.signal);
      loadAppointments();
    } else if (view === 'messages') {
      loadMessages();
    }
  }

  function refreshVisible() {
    if (currentView === 'appointments') loadAppointments();
  }

  // ---------------------------------------------------------------------------------------
  // Appointments view (for people: a table with Cancel buttons, and a reschedule form)

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  async function loadAppointments() {
    const tbody = $('appointments-body');
    const select = $('reschedule-id');
    try {
      const body = await api('GET', '/api/appointments', undefined, 'page:appointments');
      tbody.textContent = '';
      body.appointments.forEach((a) => {
        const row = document.createElement('tr');
        row.setAttribute('data-appointment-id', a.id);
        cell(row, a.id);
        cell(row, a.patient_name);
        cell(row, a.doctor_name);
        cell(row, a.date);
        cell(row, a.time);
        cell(row, a.status === 'booked' ? 'Booked' : 'Cancelled', 'status-' + a.status);
        const actions = cell(row, '');
        if (a.status === 'booked') {
          const button = document.createElement('button');
          button.type = 'button';
          button.className = 'small danger';
          button.textContent = 'Cancel';
          button.setAttribute('aria-label', 'Cancel appointment ' + a.id);
          button.setAttribute('data-cancel', a.id);
          actions.appendChild(button);
        }
        tbody.appendChild(row);
      });
      if (body.appointments.length === 0) {
        const row = document.createElement('tr');
        cell(row, 'No appointments yet.', 'muted').colSpan = 7;
        tbody.appendChild(row);
      }
      const previous = select.value;
      select.textContent = '';
      body.appointments.filter((a) => a.status === 'booked').forEach((a) => {
        const option = document.createElement('option');
        option.value = a.id;
        option.textContent = a.id + ' — ' + a.patient_name + ', ' + a.doctor_name + ', ' + a.date + ' ' + a.time;
        select.appendChild(option);
      });
      if (previous) select.value = previous;
    } catch (err) {
      show($('appointments-result'), 'error', 'Could not load appointments: ' + err.message);
    }
  }

  const appointmentsBody = $('appointments-body');
  if (appointmentsBody) {
    appointmentsBody.addEventListener('click', async (event) => {
      const button = event.target.closest('button[data-cancel]');
      if (!button) return;
      const id = button.getAttribute('data-cancel');
      button.disabled = true;
      try {
        const body = await api('POST', '/api/appointments/' + encodeURIComponent(id) + '/cancel', {}, 'page:cancel');
        show($('appointments-result'), 'success', 'Cancelled ' + describe(body.appointment) + '.');
      } catch (err) {
        show($('appointments-result'), 'error', 'Could not cancel ' + id + ' (' + err.code + '): ' + err.message);
      }
      loadAppointments();
    });
  }

  const rescheduleForm = $('reschedule-form');
  if (rescheduleForm) {
    rescheduleForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const data = formData(rescheduleForm);
      try {
        const body = await api('POST', '/api/appointments/' + encodeURIComponent(data.appointment_id) + '/reschedule', { date: data.date, time: data.time }, 'human-form:reschedule');
        show($('appointments-result'), 'success', 'Rescheduled ' + describe(body.appointment) + '.');
      } catch (err) {
        show($('appointments-result'), 'error', 'Could not reschedule (' + err.code + '): ' + err.message);
      }
      loadAppointments();
    });
  }

  // ---------------------------------------------------------------------------------------
  // Messages view (patient-written text: rendered as text, never as markup)

  async function loadMessages() {
    const list = $('message-list');
    try {
      const body = await api('GET', '/api/messages', undefined, 'page:messages');
      list.textContent = '';
      body.messages.forEach((m) => {
        const item = document.createElement('li');
        item.setAttribute('data-message-id', m.id);
        const meta = document.createElement('div');
        meta.className = 'meta';
        meta.textContent = m.from + ' · ' + new Date(m.received_at).toLocaleString();
        const subject = document.createElement('strong');
        subject.textContent = m.subject;
        const text = document.createElement('p');
        text.style.margin = '4px 0 0';
        text.textContent = m.body;
        item.append(meta, subject, text);
        list.appendChild(item);
      });
    } catch (err) {
      list.textContent = 'Could not load messages: ' + err.message;
    }
  }

  window.addEventListener('hashchange', route);
  route();
})();
`;
