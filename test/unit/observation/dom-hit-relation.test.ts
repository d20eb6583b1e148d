import { describe, expect, it } from 'vitest';
import { hitRelation, type ComposedTree } from '../../../src/observation/dom/hit-relation.ts';

/** A hand-built composed tree: light-DOM parents, shadow roots with hosts, and slots script may or may not see. */
interface FakeNode {
  name: string;
  parent: FakeNode | null;
  hostOf?: FakeNode;
  slot?: FakeNode;
}

const tree: ComposedTree<FakeNode> = { assignedSlot: (n) => n.slot ?? null, parent: (n) => n.parent, hostOf: (n) => n.hostOf ?? null };
const node = (name: string, parent: FakeNode | null): FakeNode => ({ name, parent });
const shadowOf = (host: FakeNode): FakeNode => ({ name: `#shadow(${host.name})`, parent: null, hostOf: host });

/**
 * document > main > sl-button (host) > span "Place order" (light DOM)
 * sl-button's shadow > button[part=base] > slot ; and a sibling overlay div in the same shadow
 */
function shoelaceButton(open: boolean) {
  const doc = node('#document', null);
  const main = node('main', doc);
  const host = node('sl-button', main);
  const label = node('span', host);
  const root = shadowOf(host);
  const base = node('button', root);
  const slot = node('slot', base);
  const icon = node('sl-icon', base);
  const overlay = node('div.overlay', root);
  if (open) label.slot = slot;
  const banner = node('div.cookie', doc);
  return { doc, main, host, label, base, icon, overlay, banner, root };
}

describe('hitRelation', () => {
  it('counts the element, its descendants and nested hosts inside it as hit', () => {
    const t = shoelaceButton(true);
    expect(hitRelation(t.base, t.base, tree)).toBe('on');
    expect(hitRelation(t.icon, t.base, tree)).toBe('on');
  });

  it('counts the shadow host that draws the element as hit (retargeted hits, directly slotted text)', () => {
    const t = shoelaceButton(true);
    expect(hitRelation(t.host, t.base, tree)).toBe('on');
  });

  it('counts light-DOM content slotted into a slot inside the element as hit', () => {
    const t = shoelaceButton(true);
    expect(hitRelation(t.label, t.base, tree)).toBe('on');
  });

  it('counts light-DOM content of a closed root’s host as hit, since its slot cannot be seen', () => {
    const t = shoelaceButton(false);
    expect(hitRelation(t.label, t.base, tree)).toBe('on');
  });

  it('finds the hosts of nested shadow roots', () => {
    // sl-breadcrumb (host) > sl-breadcrumb-item (light DOM, host) > shadow > a[part=label] > slot
    const doc = node('#document', null);
    const crumbs = node('sl-breadcrumb', doc);
    const inner = node('nav', shadowOf(crumbs));
    const item = node('sl-breadcrumb-item', crumbs);
    item.slot = node('slot', inner);
    const link = node('a', shadowOf(item));
    const text = node('span', item);
    text.slot = node('slot', link);
    expect(hitRelation(item, link, tree)).toBe('on');
    expect(hitRelation(text, link, tree)).toBe('on');
    // The breadcrumb is a light-DOM ancestor of the item, not a host of the link's tree.
    expect(hitRelation(crumbs, link, tree)).toBe('around');
  });

  it('calls an overlay elsewhere: a page banner, another part of the same component, content slotted elsewhere', () => {
    const t = shoelaceButton(true);
    expect(hitRelation(t.banner, t.base, tree)).toBe('elsewhere');
    expect(hitRelation(t.overlay, t.base, tree)).toBe('elsewhere');
    const other = node('div', t.host);
    other.slot = node('slot', t.overlay);
    expect(hitRelation(other, t.base, tree)).toBe('elsewhere');
  });

  it('calls ordinary ancestors around, so the element’s own fragments are tried', () => {
    const t = shoelaceButton(true);
    expect(hitRelation(t.main, t.base, tree)).toBe('around');
    expect(hitRelation(t.doc, t.base, tree)).toBe('around');
    const wrapper = node('div', t.root);
    t.base.parent = wrapper;
    expect(hitRelation(wrapper, t.base, tree)).toBe('around');
  });
});
