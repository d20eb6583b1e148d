import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAriaSnapshot, parseKey, phraseIndex } from '../../../sites/model/widget-agent/aria-text.ts';
import { findTarget, holds } from '../../../sites/model/widget-agent/view.ts';

/**
 * Playwright's ariaSnapshot read the way the anchor agent reads it, on snapshots captured from the
 * widget lab (test/fixtures/widget-agent/*.aria.txt): controls by role and name with the index
 * the locator needs, plain text lines as texts, and the misses that name what the snapshot lacks.
 */

const snapshot = (name: string) => parseAriaSnapshot(readFileSync(join(import.meta.dirname, '../../fixtures/widget-agent', name), 'utf8'));

describe('ariaSnapshot, as captured from the widget lab', () => {
  it('reads controls with role, name, states and values, and counts which match of its role and name each is', () => {
    const seat = snapshot('jq-checkboxradio.aria.txt');
    expect(seat.nodes.find((n) => n.role === 'radio' && n.name === 'Aisle')).toMatchObject({ states: ['checked'], control: true, nth: 0 });
    expect(seat.nodes.filter((n) => n.role === 'radio').map((n) => n.nth)).toEqual([0, 0, 0]);
    const menu = snapshot('jq-selectmenu.aria.txt');
    expect(menu.nodes.find((n) => n.role === 'combobox')).toMatchObject({ name: '', value: 'Standard (4–6 days)', control: true });
    const covered = snapshot('v-covered.aria.txt');
    // `- button "Close": ✕`: the name, not the icon inside.
    expect(covered.nodes.find((n) => n.role === 'button' && n.name === 'Close')).toBeDefined();
  });

  it('turns a table into its links and cells, not one text per row, and sees the month it shows', () => {
    const picker = snapshot('jq-datepicker-december.aria.txt');
    expect(holds(picker, { says: 'December' })).toBe(true);
    expect(holds(picker, { says: 'January' })).toBe(false);
    expect(picker.nodes.some((n) => n.name === '1 2 3 4 5')).toBe(false);
    expect(findTarget(picker, { name: '7', roles: ['link', 'gridcell'], said: '"7"' })).toMatchObject({ node: { role: 'link', name: '7', nth: 0 } });
  });

  it('keeps list items as rows of text, so a grip is found in the row that says its item', () => {
    const list = snapshot('v-pointer-sort.aria.txt');
    const grip = findTarget(list, { name: '⠿', near: 'Bananas', said: "the grip of 'Bananas'" });
    expect(grip).toMatchObject({ node: { role: 'text', name: '⠿ Bananas' }, phrase: '⠿' });
    if (!('node' in grip)) throw new Error('no grip');
    // getByText('⠿').nth(2): the third grip on the page.
    expect(phraseIndex(list, grip.node, '⠿')).toBe(2);
    // "Apples" with its icon dropped is the row's whole text.
    expect(findTarget(list, { name: 'Apples', roles: ['listitem'], said: '"Apples"' })).toMatchObject({ node: { name: '⠿ Apples' } });
  });

  it('finds the unnamed button beside a text, and names what it cannot find', () => {
    expect(findTarget(snapshot('mui-menu.aria.txt'), { unnamed: true, roles: ['button'], near: 'Project Apollo', said: 'the icon button' })).toMatchObject({
      node: { role: 'button', name: '', nth: 0 },
    });
    expect(findTarget(snapshot('v-icon-menu.aria.txt'), { unnamed: true, roles: ['button'], near: 'Invoice 1042', said: "the icon in the row 'Invoice 1042'" })).toEqual({
      miss: `no control without a name near "Invoice 1042" in the view (the icon in the row 'Invoice 1042')`,
    });
    expect(findTarget(snapshot('v-svg-large-red.aria.txt'), { shape: { kind: 'circle', color: 'red', size: 'large' }, said: 'the large red circle' })).toEqual({
      miss: 'no shapes in the view (the large red circle); it shows 1 unnamed img, nothing inside',
    });
    expect(findTarget(snapshot('v-hover-css.aria.txt'), { name: 'Products', roles: ['menuitem'], said: '"Products"' })).toMatchObject({
      node: { role: 'text', name: 'Products Support' },
      phrase: 'Products',
    });
  });
});

describe('the snapshot’s key syntax', () => {
  it('reads quoted keys, escaped names and attributes', () => {
    expect(parseKey(`'button "Say \\"hi\\": now" [pressed]'`)).toEqual({ role: 'button', name: 'Say "hi": now', attrs: { pressed: 'true' } });
    expect(parseKey('heading "Book a table" [level=1]')).toEqual({ role: 'heading', name: 'Book a table', attrs: { level: '1' } });
  });

  it('takes a value after the first colon outside the name, and skips properties', () => {
    const view = parseAriaSnapshot('- textbox "Time: start": "09:30"\n  - /placeholder: hh:mm\n- paragraph: "Note: closed"');
    expect(view.nodes).toEqual([expect.objectContaining({ role: 'textbox', name: 'Time: start', value: '09:30' }), expect.objectContaining({ role: 'text', name: 'Note: closed' })]);
  });
});
