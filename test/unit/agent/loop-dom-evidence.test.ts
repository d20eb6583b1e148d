import { describe, expect, it } from 'vitest';
import type { AvailableAction } from '../../../src/protocol/action.ts';
import { FakeShop, ScriptedModel, act, done, drain, portsFor, track } from './fakes.ts';

/** DOM actions share a name (`dom.click`): which control a click targets decides whether it is evidence. */

const click = (ref: string, read_only: boolean): AvailableAction => ({
  action: 'dom.click',
  via: 'legacy_inference',
  description: read_only ? 'Shows the details.' : 'Submits the cancellation form.',
  read_only,
  consequential: !read_only,
  payment: false,
  untrusted_content: false,
  requires_approval: !read_only,
  input_schema: { type: 'object' },
  target_ref: ref,
});

function shopWithClicks(): FakeShop {
  const shop = new FakeShop();
  const observe = shop.observation.bind(shop);
  shop.observation = () => {
    const o = observe();
    return { ...o, state: { ...o.state, available_actions: [...o.state.available_actions, 'dom.click'], actions: [...(o.state.actions ?? []), click('e1', true), click('e2', false)] } };
  };
  return shop;
}

describe('evidence from DOM steps', () => {
  it('a confirmed click on a consequential control verifies "done", even when a read-only click comes first in the list', async () => {
    const shop = shopWithClicks();
    const { end } = await drain('Cancel the order.', { run_id: 'run-dom1' }, portsFor(shop, new ScriptedModel([act('dom.click', { ref: 'e2' }), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: true });
  });

  it('a click on a read-only control is no evidence', async () => {
    const shop = shopWithClicks();
    const { end } = await drain('Cancel the order.', { run_id: 'run-dom2' }, portsFor(shop, new ScriptedModel([act('dom.click', { ref: 'e1' }), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });

  it('an adapter action that names the control performing it is still found by name: a read-only one is no evidence', async () => {
    const shop = new FakeShop();
    const observe = shop.observation.bind(shop);
    shop.observation = () => {
      const o = observe();
      return { ...o, state: { ...o.state, actions: (o.state.actions ?? []).map((a) => (a.action === track.action ? { ...a, target_ref: 'e7' } : a)) } };
    };
    const { end } = await drain('Where is my parcel?', { run_id: 'run-dom3' }, portsFor(shop, new ScriptedModel([act('orders.track', {}), done()])));
    expect(end).toMatchObject({ kind: 'done', verified: false });
  });
});
