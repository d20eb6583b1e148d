import { describe, expect, it } from 'vitest';
import { dispatch, ok, type Handlers } from '../../../src/protocol/channel.ts';
import { PanelRequests } from '../../../src/protocol/panel-channel.ts';

const consent = { origin: 'http://localhost:4100', scopes: ['orders:read', 'orders:cancel'], resource_scope: ['order:*'], payment: false, expires_in_s: 3600 };

/** Only the contract routes answer; the rest are not reached. */
const handlers = {
  'panel/contract-connect': (p: unknown) => ok(p),
  'panel/contract-disconnect': (p: unknown) => ok(p),
} as unknown as Handlers<typeof PanelRequests, undefined>;

describe('the panel’s contract messages, as the worker parses them off the wire', () => {
  it('accepts the consent form’s request with its type beside it, and hands on the consent alone', () => {
    expect(dispatch(PanelRequests, handlers, { type: 'panel/contract-connect', ...consent }, undefined)).toEqual({ ok: true, data: consent });
    expect(dispatch(PanelRequests, handlers, { type: 'panel/contract-disconnect', origin: consent.origin }, undefined)).toEqual({ ok: true, data: { origin: consent.origin } });
  });

  it('still refuses a consent that does not fit', () => {
    expect(dispatch(PanelRequests, handlers, { type: 'panel/contract-connect', ...consent, scopes: [] }, undefined)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
    expect(dispatch(PanelRequests, handlers, { type: 'panel/contract-connect', ...consent, expires_in_s: 0 }, undefined)).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } });
  });
});
