import { DomActionName } from './action-name.ts';

/**
 * The DOM primitives as a model reads them (issue 26): each one's input once, in a compact
 * signature (`?` optional, `|` one or the other, `[]` a list), instead of a JSON Schema repeated
 * for every element. The schemas that check a request are action.ts's; a unit test keeps these
 * signatures naming exactly their fields.
 */
export const DOM_STEP_INPUTS: Readonly<Record<DomActionName, string>> = {
  'dom.click': '{ref}',
  'dom.type': '{ref,text,clear?}',
  'dom.select': '{ref,values[]}',
  'dom.check': '{ref,checked}',
  'dom.press': '{key,ref?,repeat?}',
  'dom.hover': '{ref}',
  'dom.drag': '{ref,to|offset{x,y},at?}',
  'dom.scroll': '{ref|direction,amount?}',
  'dom.upload': '{ref}',
  'nav.goto': '{url}',
};

/** What the signatures leave unsaid, for a prompt or a tool description that explains them once. */
export const DOM_STEP_NOTES =
  'key: Enter, Escape, Tab, ArrowDown, Shift+Tab, Control+a; check sets a checkbox, radio or switch; drag to an element (at before|after|center of it: before drops above it in a list) or by offset pixels; scroll direction up|down|left|right; upload only names the file input (the person picks the file).';

/** The primitives among `names`, in Steward's fixed order. */
export function domSteps(names: Iterable<string>): DomActionName[] {
  const present = new Set(names);
  return DomActionName.options.filter((n) => present.has(n));
}

/** `dom.click{ref} dom.type{ref,text,clear?} … nav.goto{url}`: each step with its input, once. */
export function domStepsLine(steps: readonly DomActionName[]): string {
  return steps.map((s) => `${s}${DOM_STEP_INPUTS[s]}`).join(' ');
}
