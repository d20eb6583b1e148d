import { describe, expect, it } from 'vitest';
import { explainConflict } from '../../../src/sidepanel/lib/conflicts.ts';

describe('explainConflict', () => {
  it('explains a disagreement between two sources about a field, naming both in plain words', () => {
    expect(explainConflict('dom_state_disagrees_with_network')).toBe('The page structure and the network responses disagree about the state; Steward is not sure which is right.');
    expect(explainConflict('adapter_resource_id_disagrees_with_dom')).toMatch(/^The adapter and the page structure disagree about the resource id/);
  });

  it('explains canvas blind spots by the field that could not be read', () => {
    expect(explainConflict('canvas_total_not_observed')).toBe('The page draws the total on a canvas, which Steward could not read. Check the total on the page yourself.');
    expect(explainConflict('canvas_line_items_not_observed')).toMatch(/^The page draws the line items on a canvas/);
  });

  it('has specific sentences for a blank screenshot and for hidden, offscreen, covered and zero-size controls', () => {
    expect(explainConflict('screenshot_blank')).toMatch(/screenshot came out blank/);
    expect(explainConflict('hidden_interactive_elements')).toMatch(/hidden/);
    expect(explainConflict('offscreen_interactive_elements')).toMatch(/off-screen/);
    expect(explainConflict('covered_interactive_elements')).toMatch(/covered by something else/);
    expect(explainConflict('zero_size_interactive_elements')).toMatch(/no size on screen/);
    // A new visibility kind still reads as a sentence.
    expect(explainConflict('clipped_interactive_elements')).toBe('Some buttons or fields are clipped; Steward will not act on them.');
  });

  it('explains a missing expected field and a source that contradicts itself', () => {
    expect(explainConflict('total_not_observed')).toBe('Steward expected to see the total but could not find it on the page.');
    expect(explainConflict('text_state_inconsistent')).toBe('The visible text shows different values for the state in different places.');
  });

  it('falls back to a generic sentence that still names the code', () => {
    expect(explainConflict('weird_new_thing')).toBe('Steward noted a problem it has no description for: “weird new thing”.');
    // A pattern-like code with an unknown source is not misread as a disagreement between sources.
    expect(explainConflict('foo_state_disagrees_with_bar')).toMatch(/no description/);
  });
});
