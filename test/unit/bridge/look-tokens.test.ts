import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { actionsText, observeLook } from '../../../bridge/src/mcp/look-text.ts';
import { actionsView, approvalRule } from '../../../src/mcp/actions-view.ts';
import { observeReply } from '../../../src/mcp/observe-view.ts';
import { shopAdapter } from '../../../src/observation/adapters/index.ts';
import { fuse } from '../observation/fixtures/fusion-helpers.ts';
import type { PageSnapshot } from '../../../src/protocol/snapshot.ts';
import type { ToolDescriptor } from '../../../src/protocol/webmcp.ts';

/**
 * An MCP client's look at a page: everything its model reads of one steward_observe answer — Steward's
 * line, the untrusted frame, the rendering with the actions folded in — which is all a DOM step
 * needs (its input is in steward_execute's schema). Counted with gpt-tokenizer, as the bench does
 * (`observe.look_tokens`), against Playwright's ariaSnapshot of the same load.
 */

interface DemoPage {
  snapshot: PageSnapshot;
  tools: ToolDescriptor[];
  ariaSnapshot: string;
}
const load = (name: string): DemoPage => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'observation', 'fixtures', 'demo-pages', `${name}.json`), 'utf8')) as DemoPage;

function look(name: string) {
  const page = load(name);
  const state = fuse({ snapshot: page.snapshot, tools: page.tools, adapters: [shopAdapter()] });
  const reply = { tab: { tab_id: 7, url: state.url, title: '', origin: 'http://lab.test', active: true }, ...observeReply(state, page.snapshot, {}, approvalRule(true)) };
  return { page, state, reply, text: observeLook(reply) };
}

/** The shop's, the clinic's and the gallery's pages, and the lab's /visibility (which shows covered, offscreen and zero-size states the tree does not): a look costs less than their ariaSnapshot. */
const CHEAPER = ['shop-order', 'shop-orders', 'clinic-book', 'shop-tracking', 'h-cookie-banner', 'h-support-case', 'h-order-number-label', 'h-ticket-seat', 'h-checkout-quantity', 'lab-visibility'];

describe.each(CHEAPER)('a look at %s', (name) => {
  const { page, state, reply, text } = look(name);

  it('costs fewer tokens than the ariaSnapshot of the same page', () => {
    expect(encode(text).length).toBeLessThan(encode(page.ariaSnapshot).length);
  });

  it('keeps the page inside the untrusted frame and Steward’s line outside it', () => {
    const [before, framed] = text.split('<data>');
    expect(framed!.endsWith('</data>')).toBe(true);
    // Steward's own words only: the version to copy into preconditions, for a resource in a known state.
    if (before) expect(before).toBe(`state_version ${String(state.state_version)}\n`);
    expect(framed).toContain(reply.rendering);
  });

  it('needs nothing more from steward_actions for a DOM step: the steps that need the person are marked on the page', () => {
    const { steps } = actionsView(state.actions ?? [], approvalRule(true));
    for (const s of steps)
      for (const ref of s.needs_approval) {
        const line = reply.rendering.split('\n').find((l) => new RegExp(`(^|\\s)${ref} `).test(l));
        expect(line, ref).toMatch(new RegExp(`${ref} [^·]* !`));
      }
  });
});

describe('pages where Steward shows more than the accessibility tree', () => {
  it('the lab’s /shadow (closed shadow roots ariaSnapshot cannot read) and /visibility (covered, offscreen, zero-size states) cost at most 30% more', () => {
    for (const name of ['lab-shadow', 'lab-visibility']) {
      const { page, text } = look(name);
      expect(text).toContain(name === 'lab-shadow' ? 'Closed shadow action' : '(zero size)');
      expect(encode(text).length / encode(page.ariaSnapshot).length, name).toBeLessThan(1.3);
    }
  });
});

describe('steward_actions, compact', () => {
  it('lists the site’s actions with their schemas and each DOM step once with its refs, far smaller than an entry per element', () => {
    const { state } = look('shop-order');
    const view = actionsView(state.actions ?? [], approvalRule(true));
    const { page } = actionsText(view as Parameters<typeof actionsText>[0], 7);
    expect(view.actions.map((a) => a.action).sort()).toEqual(['orders.add_item', 'orders.cancel', 'orders.pay']);
    expect(view.actions.every((a) => a.needs_approval && typeof a.input_schema === 'object')).toBe(true);
    const click = view.steps.find((s) => s.action === 'dom.click')!;
    expect(click).toMatchObject({ input: '{ref}' });
    expect(click.refs).toContain('e21');
    expect(click.needs_approval).toContain('e21');
    expect(click.payment).toContain('e18');
    expect(view.steps.find((s) => s.action === 'nav.goto')).toMatchObject({ refs: [], unbound: { needs_approval: false } });
    expect(page).toMatch(/^dom\.click\{ref\} on e1 e2 [^\n]*; needs approval: [^\n]*e21/m);
    expect(encode(page).length).toBeLessThan(encode(JSON.stringify(state.actions, null, 2)).length / 3);
  });
});
