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
export const ElementState = z.enum(['disabled', 'checked', 'mixed', 'expanded', 'collapsed', 'selected', 'pressed', 'required', 'readonly', 'invalid', 'focused', 'busy', 'editable']);
export type ElementState = z.infer<typeof ElementState>;

const Label = z.string().max(1024, 'must be at most 1024 characters');

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
  fields: z.array(FormField).max(1000),
  submit_ref: ElementRef.optional(),
  /** Declarative WebMCP: the form's `toolname`, when it exposes itself as a tool. */
  toolname: z.string().min(1).max(256).optional(),
});
export type FormSummary = z.infer<typeof FormSummary>;
