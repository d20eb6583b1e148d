import { describe, expect, it } from 'vitest';
import { ApprovalRequest } from '../../../src/protocol/approval.ts';
import { cardWords, decideErrorText, optionLabelsOf } from '../../../src/sidepanel/lib/approval-words.ts';

/** A card as the service worker builds it for the shop's cancel (only the fields that matter overridden). */
function card(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return ApprovalRequest.parse({
    request_id: 'apreq_0123456789abcdef0123456789abcdef',
    agent_id: 'agent:mcp-claude',
    agent_name: 'Claude Desktop',
    token_id: 'tok_0123456789abcdef0123456789abcdef',
    origin: 'http://shop.localhost:4100',
    action: 'orders.cancel',
    via: 'adapter',
    resource: { type: 'order', id: 'ORD-1023' },
    resource_identity: { certainty: 'identified', basis: 'URL path' },
    input: { reason: 'ordered_by_mistake' },
    input_hash: 'sha256:' + 'a'.repeat(64),
    idempotency_key: 'cancel-1',
    state: {
      state: 'awaiting_payment',
      state_version: 'fp-031bb0',
      source: 'adapter',
      evidence: ['adapter', 'dom'],
      confidence: 0.9,
      conflicts: ['canvas_total_not_observed'],
      observed_at: '2026-12-06T10:00:00.000Z',
    },
    reasons: [{ code: 'consequential', detail: 'the adapter marks it consequential' }, { code: 'not_read_only' }],
    requested_at: '2026-12-06T10:00:00.000Z',
    expires_at: '2026-12-06T10:05:00.000Z',
    ...over,
  });
}

const SHOP_REASONS = ['Ordered by mistake', 'Found it cheaper elsewhere', 'Delivery is too slow', 'Other'];

describe('an approval card in words', () => {
  it('leads with what, on what, where and for whom', () => {
    expect(cardWords(card()).headline).toBe('Cancel order ORD-1023 on shop.localhost:4100, asked by Claude Desktop');
  });

  it('names an agent without a label by its id, and a multi-word action with "for"', () => {
    const { agent_name: _, ...rest } = card();
    expect(cardWords(ApprovalRequest.parse({ ...rest, action: 'orders.add_item' })).headline).toBe('Add item for order ORD-1023 on shop.localhost:4100, asked by agent:mcp-claude');
  });

  it('a payment reads "Pay for"', () => {
    expect(cardWords(card({ action: 'orders.pay', input: {} })).headline).toBe('Pay for order ORD-1023 on shop.localhost:4100, asked by Claude Desktop');
  });

  it('a tool named for its resource does not say the resource twice', () => {
    expect(cardWords(card({ action: 'cancel_order', via: 'webmcp' })).headline).toBe('Cancel order ORD-1023 on shop.localhost:4100, asked by Claude Desktop');
  });

  it('a DOM action names the element as observed, and "this page" is left out rather than named', () => {
    const w = cardWords(
      card({
        action: 'dom.click',
        via: 'legacy_inference',
        input: { ref: 'e12' },
        target: 'button “Delete note”',
        resource: { type: 'page', id: 'notes.localhost/n/1' },
        resource_identity: { certainty: 'unknown' },
      }),
    );
    expect(w.headline).toBe('Press button “Delete note” on shop.localhost:4100, asked by Claude Desktop');
    // The element's ref is how it is addressed, not a value to decide on.
    expect(w.values).toEqual([]);
    expect(w.facts.map((f) => f.text)).toContain('Steward could not tell which resource this page is about.');
  });

  it('says each reason once, in words: irreversibility without "the adapter marks it consequential" repeated', () => {
    const w = cardWords(card());
    const all = [...w.facts.map((f) => f.text), ...w.otherReasons].join('\n');
    expect(w.facts.map((f) => f.text)).toEqual(['It may not be undoable: Steward’s mapping for this site marks it as having lasting effects.']);
    expect(w.otherReasons).toEqual(['It changes something on the site.']);
    expect(all).not.toMatch(/consequential/);
  });

  it('money and page steering are front facts; a detail that says something new stays with its reason', () => {
    const w = cardWords(
      card({
        reasons: [
          { code: 'payment', detail: 'the control “Pay now” moves money' },
          { code: 'untrusted_input', detail: 'page or tool content has already reached this agent, so this request may have been steered by it' },
          { code: 'not_read_only', detail: 'goes to https://evil.example/?q=secret — an address this page does not show as a link' },
        ],
      }),
    );
    expect(w.facts.map((f) => f.text)).toEqual([
      'It moves money.',
      'Page text may have steered this request: page or tool content has already reached this agent.',
      'Goes to https://evil.example/?q=secret — an address this page does not show as a link.',
    ]);
    // Its detail made not_read_only a front fact: not said again under Details.
    expect(w.otherReasons).toEqual([]);
  });

  it('says who thinks the input was steered: Steward (page content reached the agent) or the agent itself', () => {
    const said = (detail: string) => cardWords(card({ reasons: [{ code: 'untrusted_input', detail }] })).facts.map((f) => f.text);
    expect(said('the agent built this input from untrusted page or tool content')).toEqual(['Page text may have steered this request: the agent says it built this input from page or tool content.']);
    expect(said('types text taken from the page (Acme): “Acme”')).toEqual(['Page text may have steered this request (types text taken from the page (Acme): “Acme”).']);
  });

  it('shows the exact values it will send, with the page’s own label for an option where the words match', () => {
    expect(cardWords(card()).values).toEqual([{ label: 'Reason', value: 'ordered_by_mistake' }]);
    expect(cardWords(card(), { optionLabels: SHOP_REASONS }).values).toEqual([{ label: 'Reason', value: 'Ordered by mistake', sent: 'ordered_by_mistake' }]);
  });

  it('never borrows a label that says something else than the value (a page could lie with it)', () => {
    /** The page's label the card shows for the reason `value`, or undefined when it shows the value as sent. */
    const optionLabel = (value: string, labels: readonly string[]) => {
      const [shown] = cardWords(card({ input: { reason: value } }), { optionLabels: labels }).values;
      return shown?.sent === undefined ? undefined : shown.value;
    };
    expect(optionLabel('ordered_by_mistake', SHOP_REASONS)).toBe('Ordered by mistake');
    expect(optionLabel('found_cheaper', SHOP_REASONS)).toBeUndefined();
    expect(optionLabel('ordered_by_mistake', ['Keep my order'])).toBeUndefined();
    expect(optionLabel('Other', SHOP_REASONS)).toBeUndefined();
  });

  it('a form click lists the values it would submit, skipping buttons and empty fields', () => {
    const w = cardWords(
      card({
        action: 'dom.click',
        via: 'legacy_inference',
        input: { ref: 'e3' },
        form: {
          ref: 'e1',
          hash: 'sha256:' + 'b'.repeat(64),
          fields: [
            { ref: 'e2', name: 'email', label: 'Email', type: 'email', value: 'a@b.c' },
            { ref: 'e4', name: 'note', type: 'text' },
            { ref: 'e5', name: 'terms', label: 'I agree', type: 'checkbox', check: 'checked' },
            { ref: 'e3', name: 'go', type: 'submit', value: 'Send' },
          ],
        },
      }),
    );
    expect(w.values).toEqual([
      { label: 'Email', value: 'a@b.c' },
      { label: 'I agree', value: 'checked' },
    ]);
  });

  it('another site receiving the form and the step it answers are facts to weigh', () => {
    const w = cardWords(card({ sends_to: 'https://collector.example', prior_step: { action: 'dom.click', target: 'button “Delete note”', at: '2026-12-06T09:59:50.000Z' } }));
    expect(w.facts.find((f) => f.testid === 'sends-to')?.text).toBe('The form sends what it holds to another site: https://collector.example (not http://shop.localhost:4100).');
    expect(w.facts.find((f) => f.testid === 'prior-step')?.text).toContain('dom.click on the button “Delete note”');
  });

  it('reads option labels from the form fields of an observation', () => {
    expect(optionLabelsOf({ forms: [{ ref: 'e1', fields: [{ ref: 'e2', name: 'reason', type: 'select', required: true, options: SHOP_REASONS, visibility: 'visible' }] }] })).toEqual(SHOP_REASONS);
    expect(optionLabelsOf({})).toEqual([]);
  });
});

describe('a refused decision', () => {
  it('is said in words for the codes Steward refuses with, and as the worker wrote it otherwise', () => {
    expect(decideErrorText({ code: 'APPROVAL_STALE', message: 'the decision was made on a card whose input or state no longer matches this request' })).toBe(
      'The page or the input changed since this card was shown; nothing was approved.',
    );
    expect(decideErrorText({ code: 'UNREACHABLE', message: 'Steward’s background could not be reached: gone' })).toBe('Steward’s background could not be reached: gone');
  });
});
