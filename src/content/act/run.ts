import type { ActReport, ActStep, ActStepReport } from '../../protocol/messages.ts';
import { parseChord } from '../../protocol/key-chord.ts';
import { dom } from '../../observation/dom/native.ts';
import { formChanged } from './form-check.ts';
import { click, refused, scroll, select, typeText, type ActHooks, type Report } from './perform.ts';
import { press } from './keyboard.ts';
import { drag, hover } from './drag.ts';
import { check, checkOutcome } from './toggle.ts';
import { watchNavigation } from './navigation.ts';
import { SETTLE, settlePage, type SettleOptions } from './settle.ts';
import type { RequestLedger } from './requests.ts';
import { PageActivity } from './activity.ts';
import { pageTimersDue } from './page-timers.ts';
import { armPageDialogs } from './page-dialogs.ts';
import { refusalSaid } from './refusal-said.ts';

/**
 * The content side of DOM execution (DESIGN §8: the isolated world executes DOM
 * actions). Refs are re-resolved through the observation engine's ref registry at the moment of
 * acting: a ref from another document, or whose element is gone, is refused, never guessed.
 * After the steps the act waits for the page to settle by its own events (settle.ts) and reports
 * how it settled, whether a navigation started, and the requests it set off that may have written.
 */
export interface RefResolver {
  /** The live, connected element behind a ref of the current document, if any. */
  elementFor(ref: string): Element | undefined;
  /** The current document's token (refs are issued per document). */
  readonly documentToken: string | undefined;
  /**
   * Called after acting on an element: what appears next (a menu, a suggestion list, a dialog)
   * is tied to it in the next observation (`openedBy`). Package A's ObservationHost provides it.
   */
  actedOn?(ref: string): void;
}

export interface ActContext {
  doc: Document;
  /** Requests the page's main world reported (absent: none are known, none are waited for). */
  requests?: RequestLedger;
  /** The page's DOM changes (shared with observation settling); one of its own when not given. */
  activity?: PageActivity;
  clock?: () => number;
  settle?: SettleOptions;
}

/** How long a check waits for the page to reflect the new state (a framework may render it a tick later). */
const TOGGLE_READBACK_MS = 300;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until(done: () => boolean, ms: number, clock: () => number): Promise<void> {
  const end = clock() + ms;
  while (!done() && clock() < end) await sleep(15);
}

export async function runSteps(steps: readonly ActStep[], resolver: RefResolver, documentToken: string | undefined, ctx: ActContext): Promise<ActReport> {
  const reports: ActStepReport[] = [];
  const token = resolver.documentToken;
  const base = (s: ActStep) => ({ op: s.op, ...(s.ref ? { ref: s.ref } : {}) });
  if (documentToken !== undefined && token !== documentToken) {
    const first = steps[0]!;
    reports.push({
      ...base(first),
      status: 'refused',
      code: 'STALE_DOCUMENT',
      message: 'The page has changed to another document since it was observed; its refs no longer apply. Observe again.',
      message_said: refusalSaid('stale_document'),
    });
    return { ...(token ? { documentToken: token } : {}), steps: reports };
  }
  const clock = ctx.clock ?? (() => performance.now());
  const start = clock();
  const view = dom.doc.view(ctx.doc) ?? window;
  const leavingWakes = new Set<() => void>();
  const navigation = watchNavigation(view, () => leavingWakes.forEach((wake) => wake()));
  // The page's confirm / prompt / alert during the act (and its settling) are answered "no" and reported: never the agent's to accept.
  const frameDocs = steps.map((s) => (s.ref ? resolver.elementFor(s.ref) : undefined)).flatMap((el) => (el ? [dom.ownerDocument(el) ?? ctx.doc] : []));
  const disarm = armPageDialogs([ctx.doc, ...frameDocs]);
  let dialogs: ReturnType<typeof disarm> | undefined;
  const hooks: ActHooks = {
    submitted(form) {
      const method = (dom.attr(form, 'method') ?? 'get').toLowerCase();
      const action = dom.attr(form, 'action');
      let url = dom.doc.url(ctx.doc);
      try {
        url = new URL(action ?? '', dom.doc.baseUri(ctx.doc)).href;
      } catch {
        // keep the page's address
      }
      ctx.requests?.noteForm(method, url);
      navigation.note(url);
    },
  };
  try {
    for (const step of steps) {
      const el = step.ref ? resolver.elementFor(step.ref) : undefined;
      if (step.ref && !el) {
        reports.push({
          ...base(step),
          status: 'refused',
          code: 'REF_NOT_FOUND',
          message: `No live element has ref ${step.ref} in this document (it was removed, or the ref is unknown). Observe again.`,
          message_said: refusalSaid('gone'),
        });
        break;
      }
      const r = await runStep(step, el, resolver, ctx.doc, hooks, clock);
      if (r.status === 'done' && step.ref) resolver.actedOn?.(step.ref);
      reports.push({ ...base(step), ...r });
      // Stop at the first step that did not happen, or after one that leaves the page.
      if (r.status !== 'done' || r.navigation || navigation.leaving) break;
    }
    for (const s of steps.slice(reports.length)) reports.push({ ...base(s), status: 'skipped', message: 'not run: an earlier step did not complete or the page is navigating' });
    const acted = reports.some((r) => r.status === 'done' || r.status === 'failed');
    const settleStart = clock();
    const sources = {
      doc: ctx.doc,
      activity: ctx.activity ?? new PageActivity(ctx.doc, clock),
      inFlight: () => ctx.requests?.inFlightSince(start) ?? 0,
      leaving: () => navigation.leaving,
      // Timers the steps set off: set while they ran or right after, as a reaction (a hover's delayed menu, a debounced search).
      timerDue: () => pageTimersDue(ctx.doc, start, settleStart + (ctx.settle ?? SETTLE).quietMs),
      subscribe: (wake: () => void) => {
        const offRequests = ctx.requests?.onEnd(wake);
        leavingWakes.add(wake);
        return () => {
          offRequests?.();
          leavingWakes.delete(wake);
        };
      },
      clock,
    };
    // What the act set off gets a quiet period of its own, counted from the end of the steps (and its short timers, to their end).
    const settle = acted ? await settlePage(sources, settleStart, ctx.settle ?? SETTLE, settleStart) : undefined;
    const view = ctx.doc.defaultView;
    const pageKey = settle?.how === 'quiet' && view ? sources.activity.key(view) : undefined;
    const nav = navigation.report() ?? (reports.some((r) => r.navigation) ? { same_document: false } : undefined);
    const requests = ctx.requests?.writesSince(start) ?? [];
    dialogs = disarm();
    return {
      ...(token ? { documentToken: token } : {}),
      steps: reports,
      ...(dialogs.length ? { dialogs } : {}),
      ...(settle ? { settle } : {}),
      ...(nav ? { navigation: nav } : {}),
      ...(requests.length ? { requests } : {}),
      ...(pageKey ? { page_key: pageKey } : {}),
    };
  } finally {
    if (!dialogs) disarm();
    navigation.dispose();
  }
}

async function runStep(step: ActStep, el: Element | undefined, resolver: RefResolver, doc: Document, hooks: ActHooks, clock: () => number): Promise<Report> {
  switch (step.op) {
    case 'click': {
      const form = step.form;
      return click(el!, form ? () => formChanged(form, (ref) => resolver.elementFor(ref)) : undefined, hooks);
    }
    case 'type':
      return typeText(el!, step.text, step.clear === true);
    case 'select':
      return select(el!, step.values);
    case 'scroll':
      return scroll(el, step);
    case 'press': {
      const chord = parseChord(step.key);
      if (!chord.ok) return refused({ code: 'INVALID_INPUT', message: chord.message });
      const expectFocused = step.focused ? resolver.elementFor(step.focused) : undefined;
      if (step.focused && !expectFocused)
        return refused({ code: 'REF_NOT_FOUND', message: `the element that had the focus (${step.focused}) is gone; observe again`, message_said: refusalSaid('gone') });
      const form = step.form;
      const keyDoc = el ? (dom.ownerDocument(el) ?? doc) : doc;
      return press(keyDoc, el, chord.chord, step.repeat ?? 1, {
        ...(expectFocused ? { expectFocused } : {}),
        ...(form ? { guard: () => formChanged(form, (ref) => resolver.elementFor(ref)) } : {}),
        hooks,
      });
    }
    case 'hover':
      return hover(el!);
    case 'drag': {
      const to = step.to ? resolver.elementFor(step.to) : undefined;
      if (step.to && !to)
        return refused({ code: 'REF_NOT_FOUND', message: `No live element has ref ${step.to} (the drop target) in this document. Observe again.`, message_said: refusalSaid('gone') });
      return drag(el!, to, step.offset, step.at);
    }
    case 'check': {
      const r = check(el!, step.checked, hooks);
      if (!r.clicked) return r;
      const { clicked: _clicked, ...clickReport } = r;
      await until(() => checkOutcome(el!, step.checked, clickReport).status === 'done', TOGGLE_READBACK_MS, clock);
      return checkOutcome(el!, step.checked, clickReport);
    }
  }
}
