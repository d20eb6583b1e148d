import { describe, expect, it } from 'vitest';
import { ActionName, isDomAction } from '../../../src/protocol/action-name.ts';
import { ActionRequest, AvailableAction } from '../../../src/protocol/action.ts';
import { accepts, example, rejects } from './helpers.ts';

const req = () => example('actionRequest');

describe('ActionName', () => {
  it('accepts the three naming styles', () => {
    for (const n of ['orders.cancel', 'orders.request_return', 'book_appointment', 'dom.click', 'nav.goto']) accepts(ActionName, n);
  });
  it('reserves dom.* and nav.* for the legacy primitives', () => {
    rejects(ActionName, 'dom.submit', '', /dom\.click, dom\.type/);
    rejects(ActionName, 'orders cancel', '', /action name/);
    expect(isDomAction('dom.type')).toBe(true);
    expect(isDomAction('orders.cancel')).toBe(false);
  });
});

describe('AvailableAction', () => {
  const a = { action: 'orders.cancel', via: 'site_contract', read_only: false, consequential: true, requires_approval: true, input_schema: { type: 'object' } };
  it('accepts a described action', () => {
    accepts(AvailableAction, { ...a, changes: ['order_cancelled'] });
    accepts(AvailableAction, { ...a, action: 'orders.view', read_only: true, consequential: false, requires_approval: false });
  });
  it('refuses to skip approval for anything but a plain read', () => {
    rejects(AvailableAction, { ...a, requires_approval: false }, 'requires_approval', /not read-only, is consequential or touches payment/);
    rejects(AvailableAction, { ...a, read_only: true, consequential: false, payment: true, requires_approval: false }, 'requires_approval', /payment/);
  });
  it('a read-only action changes nothing, and legacy primitives run only via legacy_inference', () => {
    rejects(AvailableAction, { ...a, read_only: true, changes: ['x'] }, 'changes', /read-only action cannot list changes/);
    rejects(AvailableAction, { ...a, action: 'dom.click', via: 'webmcp' }, 'via', /only runs via legacy_inference/);
  });
});

describe('ActionRequest', () => {
  it('defaults input to {} and allows omitting preconditions and approval', () => {
    const { input: _i, preconditions: _p, approval: _a, ...rest } = req();
    expect(accepts(ActionRequest, rest).input).toEqual({});
  });
  it('rejects a missing resource, a bad state_version and empty preconditions', () => {
    const { resource: _, ...noResource } = req();
    rejects(ActionRequest, noResource, 'resource', /required/);
    rejects(ActionRequest, { ...req(), preconditions: { state_version: 'seventeen' } }, 'preconditions.state_version', /fingerprint/);
    rejects(ActionRequest, { ...req(), preconditions: { state_version: true } }, 'preconditions.state_version', /integer .* or a fingerprint/);
    rejects(ActionRequest, { ...req(), preconditions: {} }, 'preconditions', /expected_state, state_version or both/);
  });
  it('rejects bad idempotency keys and receipt references', () => {
    rejects(ActionRequest, { ...req(), idempotency_key: '' }, 'idempotency_key', /1–255 characters/);
    rejects(ActionRequest, { ...req(), idempotency_key: 'has space' }, 'idempotency_key', /1–255 characters/);
    rejects(ActionRequest, { ...req(), approval: { receipt_id: '274' } }, 'approval.receipt_id', /approval_<id>/);
    rejects(ActionRequest, { ...req(), approval: { receipt_id: 'approval_1', approved_by: 'bob' } }, 'approval.approved_by', /user:<id>/);
  });
  it('rejects input that is not a JSON object, or too large', () => {
    rejects(ActionRequest, { ...req(), input: 'cancel it' }, 'input', /JSON object/);
    rejects(ActionRequest, { ...req(), input: { blob: 'x'.repeat(300_000) } }, 'input', /too large/);
  });
  it('checks the inputs of legacy primitives', () => {
    const domRequest = (action: string, input: unknown) => ({ ...req(), action, input });
    accepts(ActionRequest, domRequest('dom.click', { ref: 'e12' }));
    accepts(ActionRequest, domRequest('dom.type', { ref: 'e3', text: 'hello', clear: true }));
    accepts(ActionRequest, domRequest('dom.select', { ref: 'e4', values: ['express'] }));
    accepts(ActionRequest, domRequest('dom.scroll', { direction: 'down' }));
    accepts(ActionRequest, domRequest('nav.goto', { url: 'http://localhost:4100/orders' }));
    rejects(ActionRequest, domRequest('dom.click', {}), 'input.ref', /required/);
    rejects(ActionRequest, domRequest('dom.type', { ref: 'e3', txt: 'typo' }), 'input.text', /required/);
    rejects(ActionRequest, domRequest('dom.type', { ref: 'e3', text: 'a', selector: '#x' }), 'input', /Unrecognized key/);
    rejects(ActionRequest, domRequest('dom.select', { ref: 'e4', values: [] }), 'input.values', /at least one option/);
    rejects(ActionRequest, domRequest('dom.scroll', {}), 'input', /ref to scroll into view or a direction/);
    rejects(ActionRequest, domRequest('nav.goto', { url: 'file:///etc/passwd' }), 'input.url', /http\(s\) URL/);
  });
});
