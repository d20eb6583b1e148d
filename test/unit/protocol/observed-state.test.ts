import { describe, expect, it } from 'vitest';
import { ElementSummary } from '../../../src/protocol/element.ts';
import { Fact, ObservedState, StateSummary } from '../../../src/protocol/observed-state.ts';
import { accepts, example, rejects } from './helpers.ts';

const base = () => example('observedState');

describe('ObservedState', () => {
  it('accepts the detail an agent needs', () => {
    const s = {
      ...base(),
      elements: [
        { ref: 'e1', role: 'button', name: 'Cancel order', states: [], visibility: 'visible' },
        { ref: 'e2', role: 'textbox', name: 'Reason', value: '', states: ['editable', 'required'], visibility: 'offscreen' },
      ],
      facts: [
        { name: 'order_status', value: 'awaiting_payment', sources: ['dom', 'network'], confidence: 0.95 },
        { name: 'order_total', value: null, sources: ['dom'], confidence: 0.2, disagreements: [{ source: 'network', value: 42.5 }] },
      ],
      forms: [{ ref: 'e3', fields: [{ ref: 'e2', name: 'reason', type: 'text', required: true, visibility: 'offscreen' }], submit_ref: 'e1' }],
      tools: [],
      actions: [{ action: 'orders.cancel', via: 'legacy_inference', read_only: false, consequential: true, requires_approval: true, input_schema: { type: 'object' } }],
    };
    const parsed = accepts(ObservedState, s);
    expect(parsed.actions?.[0]?.payment).toBe(false); // defaulted
  });

  it('a contract state carries an integer version', () => {
    accepts(ObservedState, { ...base(), source: 'site_contract', evidence: ['site_contract'], state_version: 17 });
  });

  it('rejects confidence outside [0, 1]', () => {
    rejects(ObservedState, { ...base(), confidence: 1.5 }, 'confidence', /between 0 and 1/);
    rejects(ObservedState, { ...base(), confidence: -0.1 }, 'confidence', /between 0 and 1/);
  });

  it('rejects a missing resource and a half resource', () => {
    const { resource: _, ...noResource } = base();
    rejects(ObservedState, noResource, 'resource', /required/);
    rejects(ObservedState, { ...base(), resource: { type: 'order' } }, 'resource.id', /required/);
  });

  it('rejects a malformed state_version', () => {
    rejects(ObservedState, { ...base(), state_version: 'v17' }, 'state_version', /fingerprint/);
    rejects(ObservedState, { ...base(), state_version: 'fp-12' }, 'state_version', /at least 6/);
    rejects(ObservedState, { ...base(), state_version: -1 }, 'state_version', /non-negative integer/);
    rejects(ObservedState, { ...base(), state_version: 1.5 }, 'state_version', /integer/);
  });

  it('ties integer versions to the site contract path', () => {
    rejects(ObservedState, { ...base(), state_version: 17 }, 'state_version', /only from a site contract/);
    rejects(ObservedState, { ...base(), source: 'site_contract', evidence: ['site_contract'] }, 'state_version', /integer state_version/);
    rejects(ObservedState, { ...base(), source: 'site_contract', state_version: 3 }, 'evidence', /site_contract as evidence/);
  });

  it('rejects unknown sources, evidence kinds and non-snake_case conflicts', () => {
    rejects(ObservedState, { ...base(), source: 'guess' }, 'source', /expected one of/);
    rejects(ObservedState, { ...base(), evidence: ['dom', 'vibes'] }, 'evidence[1]', /expected one of/);
    rejects(ObservedState, { ...base(), evidence: [] }, 'evidence', /at least one source/);
    rejects(ObservedState, { ...base(), evidence: ['dom', 'dom'] }, 'evidence[1]', /repeats "dom"/);
    rejects(ObservedState, { ...base(), conflicts: ['Canvas total missing'] }, 'conflicts[0]', /snake_case/);
  });

  it('rejects bad timestamps and URLs', () => {
    rejects(ObservedState, { ...base(), observed_at: 'yesterday' }, 'observed_at', /ISO 8601/);
    rejects(ObservedState, { ...base(), url: 'javascript:alert(1)' }, 'url', /http\(s\) URL/);
  });

  it('requires each fact to cite only listed evidence', () => {
    const facts = [{ name: 'order_total', value: 42.5, sources: ['dom', 'canvas'], confidence: 0.5 }];
    rejects(ObservedState, { ...base(), facts }, 'facts[0].sources[1]', /"canvas" is not listed in evidence/);
  });

  it('rejects duplicate element refs and actions missing from available_actions', () => {
    const el = { ref: 'e1', role: 'button', name: 'Pay', states: [], visibility: 'visible' };
    rejects(ObservedState, { ...base(), elements: [el, el] }, 'elements[1].ref', /used twice/);
    const actions = [{ action: 'orders.track', via: 'adapter', read_only: true, consequential: false, requires_approval: false, input_schema: {} }];
    rejects(ObservedState, { ...base(), actions }, 'actions[0].action', /not listed in available_actions/);
  });

  it('StateSummary picks the approval-relevant part', () => {
    const summary = accepts(StateSummary, base());
    expect(Object.keys(summary).sort()).toEqual(['confidence', 'conflicts', 'evidence', 'observed_at', 'source', 'state', 'state_version']);
  });
});

describe('ElementSummary and Fact', () => {
  it('rejects an unknown visibility and repeated states', () => {
    const el = { ref: 'e1', role: 'button', name: 'Pay', states: [], visibility: 'visible' };
    rejects(ElementSummary, { ...el, visibility: 'transparent' }, 'visibility', /zero_size/);
    rejects(ElementSummary, { ...el, states: ['disabled', 'disabled'] }, 'states', /repeat/);
    rejects(ElementSummary, { ...el, ref: 'div > button' }, 'ref', /element ref/);
  });
  it('a fact needs sources and a source cannot both support and contradict it', () => {
    rejects(Fact, { name: 'total', value: 1, sources: [], confidence: 1 }, 'sources', /at least one source/);
    rejects(Fact, { name: 'total', value: 1, sources: ['dom'], confidence: 1, disagreements: [{ source: 'dom', value: 2 }] }, 'disagreements[0].source', /both support and disagree/);
  });
});
