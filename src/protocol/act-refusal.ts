import { z } from 'zod';

/**
 * Why a DOM step was refused before it touched anything, as data (issue 30): the content script
 * (src/content/act/) sends it beside its English message, the worker carries it to the result
 * (`error_said`), and the side panel says it in the person's language (src/sidepanel/lib/phrases.ts).
 * It comes from a content script in a page's renderer: it is checked here, and one that does not
 * fit is dropped (the English it travels beside is shown). Agents get the English only.
 */

/**
 * The refusals the panel can say: each one names the element it is about, except `gone`,
 * `stale_document` and `form_field_gone`. `focus_moved`: the element that had the focus when the
 * page was observed; `drop_offscreen`: the element being dragged; `form_changed`: the approved
 * form's field that no longer holds its approved value.
 */
export const ActRefusalReason = z.enum([
  'covered',
  'hidden',
  'disabled',
  'offscreen',
  'gone',
  'stale_document',
  'hidden_field',
  'read_only',
  'not_editable',
  'not_selectable',
  'no_option',
  'not_a_toggle',
  'cannot_uncheck',
  'not_focusable',
  'option_disabled',
  'focus_moved',
  'drop_offscreen',
  'form_changed',
  'form_field_gone',
]);
export type ActRefusalReason = z.infer<typeof ActRefusalReason>;

/** A role as Steward words it (`button`, `banner`, `overlay`): a lower-case token, never the page's free text. */
export const RoleToken = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);
/** A name as the page gives it: quoted as the page's words, never read as markup. */
const PageName = z.string().max(200);

/**
 * `role` and `name`: the element the step was for; `cover_role` and `cover_name`: what lies on top
 * of it (covered); `option`: the agent's value a list does not offer (no_option) or offers disabled (option_disabled).
 */
export const ActRefusalPhrase = z.object({
  code: z.literal('act_refused'),
  params: z.strictObject({
    reason: ActRefusalReason,
    role: RoleToken.optional(),
    name: PageName.optional(),
    cover_role: RoleToken.optional(),
    cover_name: PageName.optional(),
    option: PageName.optional(),
  }),
});
export type ActRefusalPhrase = z.infer<typeof ActRefusalPhrase>;
export type ActRefusalValues = ActRefusalPhrase['params'];

/** Beside an English message: a phrase that does not fit is dropped, not the message. */
export const ActRefusalBeside = ActRefusalPhrase.optional().catch(undefined);
