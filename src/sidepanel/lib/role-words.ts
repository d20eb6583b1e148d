import { t } from '../../base/i18n.ts';

/**
 * Steward's words for the roles it gives controls (an ARIA role it computed, or one it inferred
 * from the page's behaviour), in the person's language: `button` is a "nút" in Vietnamese. English
 * keeps the role's own name. A role outside this vocabulary is shown as the page has it. Pure.
 */
const ROLES = [
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'treeitem',
  'gridcell',
  'dialog',
  'alertdialog',
  // What covers a control (src/observation/dom/cover.ts): a landmark or popup by its role, else a word for where it sits.
  'banner',
  'navigation',
  'contentinfo',
  'complementary',
  'alert',
  'tooltip',
  'menu',
  'region',
  'img',
  'heading',
  'overlay',
  'header',
  'footer',
  'element',
] as const;
type Role = (typeof ROLES)[number];

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

/** The role in the person's words; the role as it is when Steward has no word for it. */
export function roleWord(role: string): string {
  return isRole(role) ? t(`said_role_${role}`) : role;
}
