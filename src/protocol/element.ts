import { z } from 'zod';
import { duplicateIndices } from './primitives.ts';

/**
 * What an observation says about interactive elements and forms. Elements are addressed by refs
 * that survive re-observation while the element lives; selectors never leave the content script.
 */

/** Opaque element ref issued by the observer, e.g. `e12` or `f2e7` (frame 2, element 7). */
export const ElementRef = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_:-]{0,63}$/, 'must be an element ref issued by an observation, e.g. e12');
export type ElementRef = z.infer<typeof ElementRef>;

/** Whether a person could actually see and hit the element; only `visible` elements may be acted on. */
export const Visibility = z.enum(['visible', 'hidden', 'offscreen', 'covered', 'zero_size']);
export type Visibility = z.infer<typeof Visibility>;

/** ARIA-style state flags (closed set, mirrors the accessibility tree). */
export const ElementState = z.enum(['disabled', 'checked', 'mixed', 'expanded', 'collapsed', 'selected', 'pressed', 'required', 'readonly', 'invalid', 'focused', 'busy', 'editable', 'reactive']);
export type ElementState = z.infer<typeof ElementState>;

const Label = z.string().max(1024, 'must be at most 1024 characters');

/**
 * Why Steward takes an element without a control's tag or role for a control (issue 26): what the
 * page's own behaviour and styling say. The page's script registered a listener (`*_listener`,
 * seen by the main-world script before any page script ran; `drop_listener`: it accepts drops),
 * an inline `on…` handler, a pointer cursor (or a grab / move one: it is dragged) from the page's
 * styles, a `:hover` rule of the page that shows something inside it (a CSS hover menu), a
 * tabindex, contenteditable, `draggable`, or a class or id that names a widget (`tab`,
 * `slider-handle`).
 */
export const InteractivityEvidence = z.enum([
  'click_listener',
  'key_listener',
  'hover_listener',
  'drag_listener',
  'drop_listener',
  /** A class a drag-and-drop library gives the places it accepts drops on (jQuery UI's `ui-droppable`, `dropzone`): its drop handling lives in the library, not in a listener on the element. */
  'drop_class',
  /** It is the item of a list that holds a drag grip (a grab cursor): a list sorted by dragging, whose rows are where an item drops. */
  'grip_inside',
  'inline_handler',
  'cursor_pointer',
  'cursor_grab',
  'hover_style',
  'tabindex',
  'contenteditable',
  'draggable',
  'class_name',
]);
export type InteractivityEvidence = z.infer<typeof InteractivityEvidence>;

/** The element's role is Steward's inference, not the page's markup: how sure, and from what. */
export const Inference = z.object({
  confidence: z.number().min(0).max(1),
  evidence: z.array(InteractivityEvidence).min(1).max(InteractivityEvidence.options.length),
});
export type Inference = z.infer<typeof Inference>;

/** What lies on top of a control at the point a click would land (a sticky header, a banner, an overlay). */
export const CoveredBy = z.object({
  role: z.string().min(1).max(64),
  name: Label,
  /** The covering element's own ref, when it is in the observation (a banner's close button to dismiss it first). */
  ref: ElementRef.optional(),
});
export type CoveredBy = z.infer<typeof CoveredBy>;

/** A slider's, spinbutton's or progress bar's bounds (its current value is `value`). */
export const RangeBounds = z.object({ min: z.number().finite().optional(), max: z.number().finite().optional(), step: z.number().finite().positive().optional() });
export type RangeBounds = z.infer<typeof RangeBounds>;

/** An SVG shape as a person sees it: what it is, its colours by name, its size next to the other shapes of its drawing. */
export const ShapeKind = z.enum(['circle', 'ellipse', 'rect', 'square', 'line', 'polyline', 'polygon', 'triangle', 'path', 'text', 'image', 'group']);
export type ShapeKind = z.infer<typeof ShapeKind>;
export const ShapeInfo = z.object({
  kind: ShapeKind,
  /** CSS colour keyword nearest to the computed fill / stroke (`red`, `navy`), absent when none is painted. */
  fill: z.string().max(32).optional(),
  stroke: z.string().max(32).optional(),
  /** Area against the other shapes of the same drawing. */
  size: z.enum(['small', 'medium', 'large']).optional(),
});
export type ShapeInfo = z.infer<typeof ShapeInfo>;

export const ElementSummary = z.object({
  ref: ElementRef,
  /** ARIA role, computed (`button`, `textbox`, `link`, …). */
  role: z.string().min(1).max(64),
  /** Accessible name; page-controlled text, so data, never instructions. */
  name: Label,
  value: z.string().max(4096).optional(),
  description: Label.optional(),
  /** Where a link goes, as the page resolves it: clicking it is judged by this (dom-risk.ts). */
  href: z.string().max(4096).optional(),
  states: z
    .array(ElementState)
    .max(ElementState.options.length)
    .refine((s) => duplicateIndices(s).length === 0, {
      message: 'must not repeat a state',
    }),
  visibility: Visibility,
  /** Frame the element lives in (0 = top frame) when the observation spans frames. */
  frame_id: z.int().nonnegative().optional(),
  /** The role is inferred from the page's behaviour (no control tag or ARIA role): how sure, from what. */
  inferred: Inference.optional(),
  /** Visibility `covered`: what is on top of it. */
  covered_by: CoveredBy.optional(),
  range: RangeBounds.optional(),
  /** The popup, list or dialog this control opened and controls (its ref). */
  controls: ElementRef.optional(),
  /** An SVG shape's kind, colours and relative size. */
  shape: ShapeInfo.optional(),
  /** Shown for what it is (an SVG shape nobody can operate), not a control: no action is offered on it. */
  passive: z.literal(true).optional(),
  /** The open dialog or alertdialog it sits in (its nearest container): a button there answers the page's question (dom-risk.ts). */
  dialog: z.object({ role: z.enum(['dialog', 'alertdialog']), name: Label.optional() }).optional(),
});
export type ElementSummary = z.infer<typeof ElementSummary>;

export const FormField = z.object({
  ref: ElementRef,
  /** The control's name attribute or accessible name. */
  name: Label,
  label: Label.optional(),
  /** Input type or role: `text`, `email`, `select`, `checkbox`, … */
  type: z.string().min(1).max(32),
  required: z.boolean(),
  value: z.string().max(4096).optional(),
  options: z.array(Label).max(1000).optional(),
  visibility: Visibility,
});
export type FormField = z.infer<typeof FormField>;

export const FormSummary = z.object({
  ref: ElementRef,
  name: Label.optional(),
  method: z.enum(['get', 'post', 'dialog']).optional(),
  /** The page's markup states the method (a form without one is usually submitted by its scripts, however they like). */
  method_declared: z.boolean().optional(),
  /** Where submitting it sends the values, as the page resolves its `action` (the card names another origin). */
  action: z.string().max(4096).optional(),
  fields: z.array(FormField).max(1000),
  submit_ref: ElementRef.optional(),
  /** Declarative WebMCP: the form's `toolname`, when it exposes itself as a tool. */
  toolname: z.string().min(1).max(256).optional(),
});
export type FormSummary = z.infer<typeof FormSummary>;
