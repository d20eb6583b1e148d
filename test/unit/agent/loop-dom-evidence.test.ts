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

describe('the new DOM primitives in a co-pilot step', () => {
  it('the model may ask for dom.press, dom.hover, dom.drag and dom.check; each reaches the pipeline as asked', async () => {
    const shop = new FakeShop();
    const steps = [
      act('dom.press', { ref: 'e1', key: 'Shift+Tab' }),
      act('dom.hover', { ref: 'e1' }),
      act('dom.drag', { ref: 'e1', offset: { x: 40, y: 0 } }),
      act('dom.check', { ref: 'e1', checked: true }),
      done(),
    ];
    await drain('Tidy up.', { run_id: 'run-prim1' }, portsFor(shop, new ScriptedModel(steps)));
    expect(shop.submitted.map((r) => [r.action, r.input])).toEqual([
      ['dom.press', { ref: 'e1', key: 'Shift+Tab' }],
      ['dom.hover', { ref: 'e1' }],
      ['dom.drag', { ref: 'e1', offset: { x: 40, y: 0 } }],
      ['dom.check', { ref: 'e1', checked: true }],
    ]);
  });

  it('a key Steward does not know, or a drag with neither target nor offset, goes back to the model as an error, never to the pipeline', async () => {
    const shop = new FakeShop();
    await drain('Tidy up.', { run_id: 'run-prim2', max_steps: 3 }, portsFor(shop, new ScriptedModel([act('dom.press', { key: 'Hyper+Q' }), act('dom.drag', { ref: 'e1' }), done()])));
    expect(shop.submitted).toEqual([]);
  });
});
