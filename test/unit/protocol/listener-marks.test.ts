import { describe, expect, it } from 'vitest';
import { EVENT_MARKS, formatMarks, INLINE_HANDLER_MARKS, isEmptyFunction, MARK, parseMarks } from '../../../src/protocol/listener-marks.ts';

describe('listener marks (the attribute the main world writes)', () => {
  it('round-trips every combination of kinds', () => {
    for (let bits = 0; bits < 64; bits++) expect(parseMarks(formatMarks(bits))).toBe(bits);
    expect(formatMarks(MARK.click | MARK.hover)).toBe('click hover');
  });

  it('reads what a page may have written: unknown words add nothing, a long or junk value is no mark at all', () => {
    expect(parseMarks('click bogus')).toBe(MARK.click);
    expect(parseMarks('__proto__ constructor toString')).toBe(0);
    expect(parseMarks('')).toBe(0);
    expect(parseMarks(null)).toBe(0);
    expect(parseMarks(`click ${'x'.repeat(100)}`)).toBe(0);
    expect(parseMarks('CLICK')).toBe(0);
  });

  it('tells an empty handler (React’s onclick stub) from one that does something', () => {
    for (const empty of ['function () {}', 'function pn(){}', '() => {}', 'function(){ }', 'async function x() {}']) expect(isEmptyFunction(empty), empty).toBe(true);
    for (const real of ['function () { go(); }', '() => go()', 'function (e) {}', '(e) => {}', 'function () { /* x */ }']) expect(isEmptyFunction(real), real).toBe(false);
  });

  it('maps the events of each kind, and only those', () => {
    expect(EVENT_MARKS.get('click')).toBe(MARK.click);
    expect(EVENT_MARKS.get('pointerdown')).toBe(MARK.click);
    expect(EVENT_MARKS.get('keydown')).toBe(MARK.key);
    expect(EVENT_MARKS.get('mouseenter')).toBe(MARK.hover);
    expect(EVENT_MARKS.get('dragstart')).toBe(MARK.drag);
    expect(EVENT_MARKS.get('drop')).toBe(MARK.drop);
    for (const edit of ['input', 'beforeinput', 'change']) expect(EVENT_MARKS.get(edit), edit).toBe(MARK.edit);
    for (const other of ['load', 'scroll', 'mousemove', 'mouseleave', 'focus', '__proto__', 'constructor']) expect(EVENT_MARKS.get(other), other).toBeUndefined();
    expect(INLINE_HANDLER_MARKS.get('onclick')).toBe(MARK.click);
    expect(INLINE_HANDLER_MARKS.get('ondrop')).toBe(MARK.drop);
  });
});
