import { RoleToken, type ActRefusalPhrase, type ActRefusalReason } from '../../protocol/act-refusal.ts';
import { cleanText } from '../../observation/clean-text.ts';
import { dom } from '../../observation/dom/native.ts';
import { semanticsOf } from '../../observation/dom/semantics.ts';

/**
 * A refusal of the act as data for the side panel (src/protocol/act-refusal.ts): the reason, the
 * element's role and name as the observation computes them, and what covers it. The English
 * message beside it stays what agents read. Only run when a step is refused.
 */

const MAX_NAME = 80;
/** Roles that say nothing of what an element is: said as an element. */
const PLAIN_ROLES: ReadonlySet<string> = new Set(['generic', 'none', 'presentation']);

/** A role the panel can word: Steward's token for it, `element` for one that says nothing or is not a role token (a page's own `role` attribute can hold anything). */
const roleToken = (role: string | undefined) => (role && !PLAIN_ROLES.has(role) && RoleToken.safeParse(role).success ? role : 'element');

const bounded = (name: string) => cleanText(name, MAX_NAME);

/** The element's role and name, as the observation names it (its accessible name). */
function elementWords(el: Element): { role: string; name?: string } {
  try {
    const s = semanticsOf(el, dom.localName(el));
    const name = bounded(s.name);
    return { role: roleToken(s.role), ...(name ? { name } : {}) };
  } catch {
    return { role: 'element' };
  }
}

/** The reason, with the element it is about (none for a ref without an element) and what else the reason names. */
export function refusalSaid(reason: ActRefusalReason, el?: Element, extra: { cover?: { role: string; name: string }; option?: string } = {}): ActRefusalPhrase {
  const cover = extra.cover;
  const coverName = cover ? bounded(cover.name) : '';
  return {
    code: 'act_refused',
    params: {
      reason,
      ...(el ? elementWords(el) : {}),
      ...(cover ? { cover_role: roleToken(cover.role), ...(coverName ? { cover_name: coverName } : {}) } : {}),
      ...(extra.option !== undefined ? { option: extra.option.slice(0, 200) } : {}),
    },
  };
}
