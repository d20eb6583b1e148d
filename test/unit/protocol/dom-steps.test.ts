import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DomCheckInput, DomClickInput, DomDragInput, DomHoverInput, DomPressInput, DomScrollInput, DomSelectInput, DomTypeInput, DomUploadInput, NavGotoInput } from '../../../src/protocol/action.ts';
import { DomActionName } from '../../../src/protocol/action-name.ts';
import { DOM_STEP_INPUTS, domSteps, domStepsLine } from '../../../src/protocol/dom-steps.ts';

const SCHEMAS: Record<DomActionName, z.ZodObject> = {
  'dom.click': DomClickInput,
  'dom.type': DomTypeInput,
  'dom.select': DomSelectInput,
  'dom.scroll': DomScrollInput,
  'dom.press': DomPressInput,
  'dom.hover': DomHoverInput,
  'dom.drag': DomDragInput,
  'dom.check': DomCheckInput,
  'dom.upload': DomUploadInput,
  'nav.goto': NavGotoInput,
};

/** The field names a signature mentions at its top level, with `?` for optional ones: `{ref,to|offset{x,y}}` → ref, to?, offset?. */
function fields(signature: string): string[] {
  const top = signature.slice(1, -1).replace(/\{[^}]*\}/g, '');
  return top.split(',').flatMap((part) => {
    const alternatives = part.split('|').map((f) => f.replace('[]', ''));
    return alternatives.map((f) => (alternatives.length > 1 && !f.endsWith('?') ? `${f}?` : f));
  });
}

describe('the DOM steps’ signatures (what a model reads instead of a JSON Schema per element)', () => {
  it.each(DomActionName.options)('%s names exactly its input’s fields, optional ones as such', (name) => {
    const shape = SCHEMAS[name].shape as Record<string, z.ZodType>;
    const expected = Object.entries(shape).map(([k, v]) => (v.safeParse(undefined).success ? `${k}?` : k));
    expect(fields(DOM_STEP_INPUTS[name]).sort()).toEqual(expected.sort());
  });

  it('lists the steps offered once, in a fixed order, each with its input', () => {
    expect(domSteps(['nav.goto', 'orders.cancel', 'dom.type', 'dom.click', 'dom.click'])).toEqual(['dom.click', 'dom.type', 'nav.goto']);
    expect(domStepsLine(['dom.click', 'dom.drag'])).toBe('dom.click{ref} dom.drag{ref,to|offset{x,y},at?}');
  });
});
