import { describe, expect, it } from 'vitest';
import { installListenerMarks } from '../../../src/content/main/listener-marks.ts';
import { LISTENER_MARK_ATTRIBUTE } from '../../../src/protocol/listener-marks.ts';
import { LISTENER_MARKS_FLUSH } from '../../../src/protocol/page-channel-names.ts';

/**
 * The main world's listener recording, on a small stand-in for a window (the unit tests have no
 * DOM): the wrapper must pass every call through unchanged and note only elements' listeners
 * of the kinds that say a person can use them; the flush writes what it noted.
 */

type Listener = (event: { type: string }) => void;

function fakeWindow() {
  class EventTarget {
    readonly registered: Array<{ type: unknown; listener: unknown; options: unknown }> = [];
    addEventListener(type: unknown, listener: unknown, options?: unknown): string {
      this.registered.push({ type, listener, options });
      return 'original-result';
    }
    dispatchEvent(event: { type: string }): boolean {
      for (const r of this.registered) if (r.type === event.type) (r.listener as Listener)(event);
      return true;
    }
  }
  class Node extends EventTarget {
    connected = true;
    type = 9;
    // One getter on Node's prototype, as in a browser (the wrapper reads it from there).
    get nodeType(): number {
      return this.type;
    }
    get isConnected(): boolean {
      return this.connected;
    }
  }
  class Element extends Node {
    readonly attributes = new Map<string, string>();
    constructor(readonly name: string) {
      super();
      this.type = 1;
    }
    get localName(): string {
      return this.name;
    }
    getAttribute(n: string): string | null {
      return this.attributes.get(n) ?? null;
    }
    setAttribute(n: string, v: string): void {
      this.attributes.set(n, String(v));
    }
  }
  class HTMLElement extends Element {
    editable = false;
    get isContentEditable(): boolean {
      return this.editable;
    }
  }
  class SVGElement extends Element {}
  // Handler properties are accessors on the prototypes, as GlobalEventHandlers defines them.
  for (const proto of [HTMLElement.prototype, SVGElement.prototype]) {
    for (const type of ['click', 'keydown', 'mouseenter', 'load']) {
      const store = new WeakMap<object, unknown>();
      Object.defineProperty(proto, `on${type}`, {
        configurable: true,
        enumerable: true,
        get(this: object) {
          return store.get(this) ?? null;
        },
        set(this: object, v: unknown) {
          store.set(this, v);
        },
      });
    }
  }
  const document = new Node();
  const win = { document, EventTarget, Node, Element, HTMLElement, SVGElement } as unknown as Window & typeof globalThis;
  const flush = () => document.dispatchEvent({ type: LISTENER_MARKS_FLUSH });
  return { win, document, flush, HTMLElement, SVGElement, Element, EventTarget };
}

const marksOf = (el: { getAttribute(n: string): string | null }) => el.getAttribute(LISTENER_MARK_ATTRIBUTE);

describe('installListenerMarks', () => {
  it('passes every call through: same this, arguments and result', () => {
    const { win, HTMLElement } = fakeWindow();
    installListenerMarks(win);
    const el = new HTMLElement('span');
    const listener = () => undefined;
    const options = { capture: true, once: true };
    expect(el.addEventListener('click', listener, options)).toBe('original-result');
    expect(el.registered.at(-1)).toEqual({ type: 'click', listener, options });
  });

  it('reads like the original: its name, its length and its source text', () => {
    const { win, EventTarget } = fakeWindow();
    const original = EventTarget.prototype.addEventListener;
    installListenerMarks(win);
    const wrapped = EventTarget.prototype.addEventListener;
    expect(wrapped).not.toBe(original);
    expect(wrapped.name).toBe('addEventListener');
    expect(wrapped.length).toBe(original.length);
    expect(wrapped.toString()).toBe(Function.prototype.toString.call(original));
  });

  it('notes click, key, hover, drag and drop listeners of elements, and writes them when asked', () => {
    const { win, HTMLElement, flush } = fakeWindow();
    installListenerMarks(win);
    const row = new HTMLElement('div');
    row.addEventListener('click', () => undefined);
    row.addEventListener('mouseenter', () => undefined);
    const card = new HTMLElement('div');
    card.addEventListener('dragstart', () => undefined);
    const zone = new HTMLElement('div');
    zone.addEventListener('dragover', () => undefined);
    const quiet = new HTMLElement('div');
    quiet.addEventListener('scroll', () => undefined);
    quiet.addEventListener('mousemove', () => undefined);
    expect(marksOf(row)).toBeNull();
    flush();
    expect(marksOf(row)).toBe('click hover');
    expect(marksOf(card)).toBe('drag');
    expect(marksOf(zone)).toBe('drop');
    expect(marksOf(quiet)).toBeNull();
    // A listener added later grows the mark at the next flush.
    row.addEventListener('keydown', () => undefined);
    flush();
    expect(marksOf(row)).toBe('click key hover');
  });

  it('says nothing of delegation roots: html, body, the document', () => {
    const { win, HTMLElement, document, flush } = fakeWindow();
    installListenerMarks(win);
    const html = new HTMLElement('html');
    const body = new HTMLElement('body');
    html.addEventListener('click', () => undefined);
    body.addEventListener('click', () => undefined);
    document.addEventListener('click', () => undefined);
    flush();
    expect(marksOf(html)).toBeNull();
    expect(marksOf(body)).toBeNull();
  });

  it('notes handler properties of HTML and SVG elements, only when set to a function', () => {
    const { win, HTMLElement, SVGElement, flush } = fakeWindow();
    installListenerMarks(win);
    const span = new HTMLElement('span') as unknown as { onclick: unknown; getAttribute(n: string): string | null };
    const circle = new SVGElement('circle') as unknown as { onmouseenter: unknown; getAttribute(n: string): string | null };
    const cleared = new HTMLElement('span') as unknown as { onkeydown: unknown; getAttribute(n: string): string | null };
    const handler = () => void span;
    span.onclick = handler;
    circle.onmouseenter = () => undefined;
    cleared.onkeydown = null;
    // React's stub on every element it gives an onClick prop.
    const chip = new HTMLElement('div') as unknown as { onclick: unknown; getAttribute(n: string): string | null };
    chip.onclick = function () {};
    expect(span.onclick).toBe(handler);
    flush();
    expect(marksOf(span)).toBe('click');
    expect(marksOf(chip)).toBe('stub');
    expect(marksOf(circle)).toBe('hover');
    expect(marksOf(cleared)).toBeNull();
  });

  it('writes nothing inside an editor: that is the person’s document, which the page may save as HTML', () => {
    const { win, HTMLElement, flush } = fakeWindow();
    installListenerMarks(win);
    const inEditor = new HTMLElement('span');
    inEditor.editable = true;
    inEditor.addEventListener('click', () => undefined);
    flush();
    expect(marksOf(inEditor)).toBeNull();
  });

  it('keeps detached elements waiting until they are connected', () => {
    const { win, HTMLElement, flush } = fakeWindow();
    installListenerMarks(win);
    const later = new HTMLElement('li');
    later.connected = false;
    later.addEventListener('click', () => undefined);
    flush();
    expect(marksOf(later)).toBeNull();
    later.connected = true;
    flush();
    expect(marksOf(later)).toBe('click');
  });

  it('never runs page code to read a type, and never throws into the page', () => {
    const { win, HTMLElement, EventTarget, flush } = fakeWindow();
    installListenerMarks(win);
    let converted = 0;
    const sneaky = {
      toString() {
        converted++;
        return 'click';
      },
    };
    const el = new HTMLElement('div');
    el.addEventListener(sneaky, () => undefined);
    // The original converts it (once); the wrapper never does.
    expect(converted).toBe(0);
    // Not an element (an XMLHttpRequest, a MediaQueryList): passed through, nothing noted, nothing thrown.
    const other = new EventTarget();
    expect(() => other.addEventListener('click', () => undefined)).not.toThrow();
    // An element the page made throw when Steward reads it: the flush carries on with the others.
    const hostile = new HTMLElement('div');
    hostile.addEventListener('click', () => undefined);
    Object.defineProperty(hostile, 'connected', {
      get() {
        throw new Error('hostile');
      },
    });
    const fine = new HTMLElement('div');
    fine.addEventListener('click', () => undefined);
    expect(() => flush()).not.toThrow();
    expect(marksOf(fine)).toBe('click');
  });
});
