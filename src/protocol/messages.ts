import { z } from 'zod';
import type { PageSnapshot } from './snapshot.ts';
import { CoveredBy, ElementRef, ElementState, Inference, RangeBounds, ShapeInfo, Visibility } from './element.ts';
import { DropAt, KeyChord } from './action.ts';
import { ActRefusalBeside } from './act-refusal.ts';

/**
 * What pages send back about themselves: snapshots (whole or as deltas), query answers, act
 * reports and network records. Checked here like any untrusted input; the channels that carry
 * them are src/protocol/*-channel.ts.
 */

const Box = z.object({ x: z.number(), y: z.number(), w: z.number().nonnegative(), h: z.number().nonnegative() });
const RowRef = z.object({ ref: ElementRef, row: z.int().nonnegative() });
const Text = (max: number) => z.string().max(max);

export const SnapshotElementSchema = z.object({
  ref: ElementRef,
  role: z.string().min(1).max(64),
  name: Text(1024),
  description: Text(1024).optional(),
  value: Text(4096).optional(),
  states: z.array(ElementState).max(ElementState.options.length),
  visibility: Visibility,
  tag: z.string().min(1).max(64),
  inputType: z.string().max(32).optional(),
  href: Text(2048).optional(),
  formRef: ElementRef.optional(),
  scope: z.enum(['document', 'shadow-open', 'shadow-closed', 'iframe']),
  framePath: z.array(z.int().nonnegative()).max(8).optional(),
  box: Box.optional(),
  options: z.array(Text(128)).max(64).optional(),
  container: RowRef.optional(),
  order: z.int().nonnegative().optional(),
  inferred: Inference.optional(),
  coveredBy: CoveredBy.optional(),
  range: RangeBounds.optional(),
  controls: ElementRef.optional(),
  shape: ShapeInfo.optional(),
  passive: z.literal(true).optional(),
});

export const PageSnapshotSchema = z.object({
  url: Text(8192),
  title: Text(1024),
  capturedAt: z.string().max(64),
  elements: z.array(SnapshotElementSchema).max(50_000),
  forms: z
    .array(
      z.object({
        ref: ElementRef,
        name: Text(256).optional(),
        method: z.enum(['get', 'post', 'dialog']).optional(),
        methodDeclared: z.boolean().optional(),
        action: Text(2048).optional(),
        toolname: Text(256).optional(),
        fieldRefs: z.array(ElementRef).max(5_000),
        submitRef: ElementRef.optional(),
      }),
    )
    .max(1_000),
  texts: z
    .array(
      z.object({
        text: Text(1024),
        ref: ElementRef.optional(),
        role: z.string().max(64).optional(),
        level: z.int().min(1).max(9).optional(),
        order: z.int().nonnegative().optional(),
        container: RowRef.optional(),
        landmark: z.string().max(64).optional(),
        volatile: z.literal(true).optional(),
      }),
    )
    .max(5_000),
  structuredData: z.array(z.object({ kind: z.enum(['json-ld', 'microdata']), type: Text(128).optional(), data: z.record(z.string(), z.unknown()) })).max(2_000),
  canvases: z
    .array(
      z.object({
        ref: ElementRef,
        box: Box,
        hasTextEquivalent: z.boolean(),
        label: Text(1024).optional(),
        pixelHash: z.string().max(64).optional(),
        unreadable: z.boolean().optional(),
      }),
    )
    .max(1_000),
  tables: z
    .array(
      z.object({
        ref: ElementRef.optional(),
        caption: Text(256).optional(),
        headers: z.array(Text(256)).max(64),
        rows: z.array(z.array(Text(256)).max(64)).max(200),
        rowCount: z.int().nonnegative().optional(),
      }),
    )
    .max(50)
    .optional(),
  stats: z.object({
    nodes: z.int().nonnegative(),
    interactive: z.int().nonnegative(),
    hidden: z.int().nonnegative(),
    iframesSkipped: z.int().nonnegative(),
    shadowRoots: z.int().nonnegative(),
  }),
  blindSpots: z.array(z.string().max(128)).max(128),
  containers: z
    .array(
      z.object({
        ref: ElementRef,
        role: z.string().max(64),
        name: Text(256).optional(),
        rows: z.int().nonnegative(),
        columns: z.array(Text(128)).max(64).optional(),
        openedBy: ElementRef.optional(),
      }),
    )
    .max(10_000)
    .optional(),
  documentToken: z.string().max(64).optional(),
  viewport: z.object({ w: z.number(), h: z.number(), scrollX: z.number(), scrollY: z.number(), pageW: z.number(), pageH: z.number() }).optional(),
  timing: z
    .object({
      mode: z.enum(['full', 'incremental']),
      captureMs: z.number().nonnegative(),
      updateMs: z.number().nonnegative(),
      layoutMs: z.number().nonnegative().optional(),
      dirtyRoots: z.int().nonnegative(),
      recomputed: z.int().nonnegative(),
    })
    .optional(),
  contractHref: z.string().url().max(2048).optional(),
});
// Compile-time check, both ways: what the schema accepts is a PageSnapshot, and a PageSnapshot fits the schema.
type Assignable<A extends B, B> = A;
type _SnapshotSchemaMatches = [Assignable<z.output<typeof PageSnapshotSchema>, PageSnapshot>, Assignable<PageSnapshot, z.input<typeof PageSnapshotSchema>>];

/** What `query` may ask for (see src/observation/render/query.ts). */
export const SnapshotQuerySchema = z
  .object({
    refs: z.array(ElementRef).max(500).optional(),
    role: z.string().min(1).max(64).optional(),
    name: Text(1024).optional(),
    text: Text(1024).optional(),
    visibility: Visibility.optional(),
    container: ElementRef.optional(),
    offset: z.int().nonnegative().max(1_000_000).optional(),
    limit: z.int().min(1).max(500).optional(),
  })
  .strict();

/** The fields of an element that changed since the base snapshot; `null` removes an optional field. */
const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();
export const SnapshotElementPatch = z
  .object({
    ref: ElementRef,
    role: SnapshotElementSchema.shape.role.optional(),
    name: SnapshotElementSchema.shape.name.optional(),
    states: SnapshotElementSchema.shape.states.optional(),
    visibility: Visibility.optional(),
    tag: SnapshotElementSchema.shape.tag.optional(),
    scope: SnapshotElementSchema.shape.scope.optional(),
    description: nullable(Text(1024)),
    value: nullable(Text(4096)),
    inputType: nullable(z.string().max(32)),
    href: nullable(Text(2048)),
    formRef: nullable(ElementRef),
    framePath: nullable(z.array(z.int().nonnegative()).max(8)),
    box: nullable(Box),
    options: nullable(z.array(Text(128)).max(64)),
    container: nullable(RowRef),
    inferred: nullable(Inference),
    coveredBy: nullable(CoveredBy),
    range: nullable(RangeBounds),
    controls: nullable(ElementRef),
    shape: nullable(ShapeInfo),
    passive: nullable(z.literal(true)),
  })
  .strict();
export type SnapshotElementPatch = z.infer<typeof SnapshotElementPatch>;

/** A snapshot's lists (besides elements and texts) that a delta leaves out when they are exactly as in its base. */
export const SameAsBase = z.enum(['forms', 'structuredData', 'canvases', 'tables', 'containers']);
export type SameAsBase = z.infer<typeof SameAsBase>;

/** A snapshot's other lists as a delta may leave them out (see `same`). */
const DeltaLists = PageSnapshotSchema.omit({ elements: true, texts: true }).partial({ forms: true, structuredData: true, canvases: true });
/** A snapshot whose unchanged parts are left out (see `content/observe`). */
const SnapshotDeltaSchema = DeltaLists.extend({
  /** Lists exactly as in the base, left out (a table of 50 rows does not travel again with every look). */
  same: z.array(SameAsBase).max(SameAsBase.options.length).optional(),
  /** Every element's ref in order; absent: the same refs in the same order as the base. */
  elementRefs: z.array(ElementRef).max(50_000).optional(),
  /** Every element's `order`; absent: the same as the base (or the base's shifted by `elementOrderShifts`). */
  elementOrders: z.array(z.int().nonnegative()).max(50_000).optional(),
  /** With the base's refs in the base's places: runs of positions whose `order` moved alike, [first, count, shift]. */
  elementOrderShifts: z
    .array(z.tuple([z.int().nonnegative(), z.int().positive().max(50_000), z.int().min(-1_000_000).max(1_000_000)]))
    .max(50_000)
    .optional(),
  /** Elements that are new since the base (by ref), in full. */
  changed: z.array(SnapshotElementSchema).max(50_000),
  /** Elements of the base that changed: only the fields that differ (`null`: the field is gone). */
  patches: z.array(SnapshotElementPatch).max(50_000).optional(),
  /**
   * Elements of the base whose only change is that their box moved, as runs of neighbours moved
   * alike: [first position in the new list, count, dx, dy, nudges?]. Boxes are whole pixels, so
   * a shift of 37.5 px moves some boxes 37 and others 38: `nudges` has one digit per element of
   * the run, 3 × (its dx − run's dx + 1) + (its dy − run's dy + 1), absent when all are 4.
   * (Content inserted above shifts everything below it: thousands of boxes, one run.)
   */
  moves: z
    .array(
      z.union([
        z.tuple([z.int().nonnegative(), z.int().positive().max(50_000), z.number().finite(), z.number().finite()]),
        z.tuple([
          z.int().nonnegative(),
          z.int().positive().max(50_000),
          z.number().finite(),
          z.number().finite(),
          z
            .string()
            .regex(/^[0-8]+$/)
            .max(50_000),
        ]),
      ]),
    )
    .max(50_000)
    .optional(),
  /** Every text, when `textPieces` would not be shorter. Both absent: the same texts as the base. */
  texts: PageSnapshotSchema.shape.texts.optional(),
  /**
   * The texts in order, as runs of the base's texts — [first index in the base, count, order
   * shift]: the same words, their `order` moved by the shift — and texts of their own. (A notice
   * inserted above shifts every later text's `order` by one: one run.)
   */
  textPieces: z
    .array(z.union([z.tuple([z.int().nonnegative(), z.int().positive().max(50_000), z.int().min(-1_000_000).max(1_000_000)]), PageSnapshotSchema.shape.texts.element]))
    .max(50_000)
    .optional(),
});
export type SnapshotDelta = z.infer<typeof SnapshotDeltaSchema>;

export const ObserveReplyData = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('full'), seq: z.int().nonnegative(), snapshot: PageSnapshotSchema }),
  /** `digest` (when asked to verify): snapshotDigest of the whole snapshot the delta stands for; the worker checks what it rebuilt against it. */
  z.object({ kind: z.literal('delta'), seq: z.int().nonnegative(), baseSeq: z.int().nonnegative(), digest: z.int().nonnegative().optional(), delta: SnapshotDeltaSchema }),
]);
export type ObserveReplyData = z.infer<typeof ObserveReplyData>;
/**
 * What `content/observe` carries: ObserveReplyData as JSON text, its long lists packed (see
 * packed-rows.ts). Extension messaging converts an object graph value by value on both sides
 * (about 30 ms for a 16k-element page's first, full snapshot); one string crosses as a block, and
 * JSON.parse / JSON.stringify are native. The service worker parses the text, unpacks the lists,
 * then validates the result like any other reply.
 */
export const ObserveReplyText = z.string().max(48_000_000);
export const QueryResponse = z.object({
  documentToken: z.string().max(64),
  elements: z.array(SnapshotElementSchema).max(500),
  texts: PageSnapshotSchema.shape.texts,
  total: z.int().nonnegative(),
  missing: z.array(ElementRef).max(500),
});
export type QueryResponse = z.infer<typeof QueryResponse>;

// ── DOM actions (src/content/act/) ──────────────────────────────────────────────────────────
/** An approved submission's form: refused unless the form's fields hold exactly these values now. */
const ExpectedForm = z.array(z.object({ ref: ElementRef, value: z.string().max(4096).optional(), check: z.enum(['checked', 'mixed']).optional() })).max(1000);
/** One DOM primitive on an element ref; inputs mirror the dom.* actions' (src/protocol/action.ts). */
export const ActStep = z.discriminatedUnion('op', [
  z.object({ op: z.literal('click'), ref: ElementRef, form: ExpectedForm.optional() }),
  z.object({ op: z.literal('type'), ref: ElementRef, text: z.string().max(100_000), clear: z.boolean().optional() }),
  z.object({ op: z.literal('select'), ref: ElementRef, values: z.array(z.string().max(4096)).min(1).max(1000) }),
  z.object({
    op: z.literal('scroll'),
    ref: ElementRef.optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().positive().max(100).optional(),
  }),
  z.object({
    op: z.literal('press'),
    /** Focused first; absent: the key goes to whatever has the focus. */
    ref: ElementRef.optional(),
    key: KeyChord,
    repeat: z.int().min(1).max(50).optional(),
    /** No ref: the element Steward judged the press by (it had the focus); refused if the focus is elsewhere now. */
    focused: ElementRef.optional(),
    /** An approved Enter that submits: the form must still hold these values when it is submitted. */
    form: ExpectedForm.optional(),
  }),
  z.object({ op: z.literal('hover'), ref: ElementRef }),
  z.object({
    op: z.literal('drag'),
    ref: ElementRef,
    to: ElementRef.optional(),
    at: DropAt.optional(),
    offset: z.object({ x: z.number().finite().min(-20_000).max(20_000), y: z.number().finite().min(-20_000).max(20_000) }).optional(),
  }),
  z.object({ op: z.literal('check'), ref: ElementRef, checked: z.boolean() }),
]);
export type ActStep = z.infer<typeof ActStep>;
/** What happened to one step, precisely: `refused` = nothing was done; `failed` = it threw midway. */
export const ActStepReport = z.object({
  op: z.enum(['click', 'type', 'select', 'scroll', 'press', 'hover', 'drag', 'check']),
  ref: ElementRef.optional(),
  status: z.enum(['done', 'refused', 'failed', 'skipped']),
  code: z.string().max(64).optional(),
  message: z.string().max(2000),
  /** A refusal's `message` as data for the side panel (src/protocol/act-refusal.ts); one that does not fit is dropped. */
  message_said: ActRefusalBeside,
  /** The control's value afterwards (type, select, a slider moved by keys or drag). */
  value: z.string().max(4096).optional(),
  /** check: the state read back from the control afterwards. */
  checked: z.boolean().optional(),
  /** What the step set off: a form submission or a followed link (the page will navigate). */
  navigation: z.enum(['form_submitted', 'link_followed']).optional(),
});
export type ActStepReport = z.infer<typeof ActStepReport>;

/**
 * A request the page made while the act ran and settled that may have written something: any
 * POST / PUT / PATCH / DELETE, a GET to another origin, a beacon, a form submission. Seen by the
 * main world (page-controlled): evidence of an effect, never proof of its absence.
 */
export const WriteRequest = z.object({
  method: z.string().regex(/^[A-Z]{1,16}$/),
  /** Without credentials, fragment or secret-looking query values; bounded. */
  url: z.string().max(512),
  /** `image`: an image (or other resource the page loads by itself) from another origin: its address can carry data out. */
  kind: z.enum(['fetch', 'xhr', 'beacon', 'form', 'image']),
  /** HTTP status once answered (0: failed or no answer seen). */
  status: z.int().min(0).max(999).optional(),
  /** When it started, in ms after the act began. */
  at_ms: z.int().nonnegative().max(600_000),
});
export type WriteRequest = z.infer<typeof WriteRequest>;

/** How the page came to rest after the steps (settle.ts): by its own events, or at the cap. */
export const ActSettle = z.object({
  ms: z.int().nonnegative().max(600_000),
  /** `quiet`: no mutation for a moment, no request in flight, no animation running; `capped`: it never got there in time. */
  how: z.enum(['quiet', 'capped', 'navigating']),
  /** What was still going on at the cap. */
  busy: z
    .array(z.enum(['mutations', 'requests', 'animations', 'timers']))
    .max(4)
    .optional(),
});
export type ActSettle = z.infer<typeof ActSettle>;

/** A JavaScript dialog the page raised while an agent acted: answered as a person who said no, never accepted (issue 27). */
export const PageDialog = z.object({ kind: z.enum(['confirm', 'prompt', 'alert']), message: z.string().max(300) });
export type PageDialog = z.infer<typeof PageDialog>;

export const ActReport = z.object({
  documentToken: z.string().max(64).optional(),
  steps: z.array(ActStepReport).max(16),
  /** Dialogs the page raised during the act, each refused (Cancel / no text) and never shown to anyone to accept. */
  dialogs: z.array(PageDialog).max(8).optional(),
  settle: ActSettle.optional(),
  /** A navigation of this document started (Navigation API, beforeunload / pagehide, a submitted form or followed link). */
  navigation: z.object({ same_document: z.boolean(), url: z.string().max(512).optional() }).optional(),
  /** Requests that may have written, started while the act ran or settled (bounded). */
  requests: z.array(WriteRequest).max(32).optional(),
  /**
   * The page's activity key (src/content/act/activity.ts) when it settled `quiet`: an observation
   * whose own settle gives the same key reads the page exactly as the act left it.
   */
  page_key: z.string().max(128).optional(),
});
export type ActReport = z.infer<typeof ActReport>;

const NetworkRecordSchema = z.object({
  url: z.string().max(4096),
  method: z.string().max(16),
  status: z.number().int(),
  json: z.unknown(),
  truncated: z.boolean(),
  at: z.string().max(40),
});
export const NetworkResponse = z.object({ records: z.array(NetworkRecordSchema).max(100) });
export type NetworkResponse = z.infer<typeof NetworkResponse>;
