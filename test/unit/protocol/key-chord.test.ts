import { describe, expect, it } from 'vitest';
import { keyIntent, parseChord } from '../../../src/protocol/key-chord.ts';
import { DomPressInput } from '../../../src/protocol/action.ts';

const chord = (s: string) => {
  const r = parseChord(s);
  if (!r.ok) throw new Error(r.message);
  return r.chord;
};

describe('key chords (Playwright syntax)', () => {
  it('gives named keys their key, code and legacy keyCode', () => {
    expect(chord('Enter')).toMatchObject({ key: 'Enter', code: 'Enter', keyCode: 13, ctrlKey: false, shiftKey: false });
    expect(chord('ArrowDown')).toMatchObject({ key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    expect(chord('Escape')).toMatchObject({ keyCode: 27 });
    expect(chord('F5')).toMatchObject({ key: 'F5', keyCode: 116 });
  });

  it('reads modifiers and characters as a keyboard gives them', () => {
    expect(chord('Shift+Tab')).toMatchObject({ key: 'Tab', shiftKey: true, keyCode: 9 });
    expect(chord('Control+a')).toMatchObject({ key: 'a', code: 'KeyA', keyCode: 65, ctrlKey: true });
    expect(chord('Control+a').text).toBeUndefined();
    expect(chord('a')).toMatchObject({ key: 'a', text: 'a' });
    expect(chord('Shift+a')).toMatchObject({ key: 'A', text: 'A', shiftKey: true });
    expect(chord('7')).toMatchObject({ code: 'Digit7', keyCode: 55, text: '7' });
    expect(chord('Space')).toMatchObject({ key: ' ', code: 'Space', keyCode: 32, text: ' ' });
    expect(chord('+')).toMatchObject({ key: '+', text: '+' });
    expect(chord('Control++')).toMatchObject({ key: '+', ctrlKey: true });
    expect(chord('é')).toMatchObject({ key: 'é', text: 'é' });
  });

  it('refuses unknown keys and bad modifiers with a sentence', () => {
    expect(parseChord('Foo')).toMatchObject({ ok: false, message: expect.stringContaining('not a key Steward knows') });
    expect(parseChord('Hyper+a')).toMatchObject({ ok: false, message: expect.stringContaining('not a modifier') });
    expect(parseChord('Shift+Shift+a')).toMatchObject({ ok: false });
    expect(DomPressInput.safeParse({ key: 'Foo' }).success).toBe(false);
    expect(DomPressInput.safeParse({ key: 'Shift+Tab', repeat: 3 }).success).toBe(true);
  });

  it('says what a chord can do, for the risk rules', () => {
    expect(keyIntent(chord('Enter'))).toBe('submit');
    expect(keyIntent(chord('Control+Enter'))).toBe('submit');
    expect(keyIntent(chord('Space'))).toBe('activate');
    for (const k of ['Tab', 'Shift+Tab', 'ArrowLeft', 'Escape', 'Home', 'PageDown', 'Control+a']) expect(keyIntent(chord(k)), k).toBe('navigate');
    for (const k of ['x', 'Backspace', 'Delete', '#']) expect(keyIntent(chord(k)), k).toBe('text');
    for (const k of ['Control+s', 'Alt+F4', 'Meta+Backspace', 'F5']) expect(keyIntent(chord(k)), k).toBe('shortcut');
  });
});
