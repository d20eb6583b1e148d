/**
 * Stable element refs: the same live element always gets the same ref, and a ref is never given
 * to another element, even after its element is gone (the counter only grows). The registry
 * holds elements weakly, so it never keeps a removed subtree alive.
 */
export class RefRegistry {
  private readonly byElement = new WeakMap<Element, string>();
  private readonly byRef = new Map<string, WeakRef<Element>>();
  private next = 1;

  constructor(private readonly prefix = 'e') {}

  /** The element's ref, issuing a new one the first time the element is seen. */
  refFor(el: Element): string {
    let ref = this.byElement.get(el);
    if (ref === undefined) {
      ref = `${this.prefix}${this.next++}`;
      this.byElement.set(el, ref);
      this.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  /** The ref if the element already has one (does not issue). */
  peek(el: Element): string | undefined {
    return this.byElement.get(el);
  }

  /** The live element behind a ref, or undefined once it has been collected. */
  lookup(ref: string): Element | undefined {
    return this.byRef.get(ref)?.deref();
  }

  /**
   * Forgets refs whose element was garbage-collected. A detached element that is still alive keeps
   * its ref (it may be re-inserted); callers check `isConnected` before acting on it.
   */
  prune(): number {
    let dropped = 0;
    for (const [ref, weak] of this.byRef) {
      if (!weak.deref()) {
        this.byRef.delete(ref);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.byRef.size;
  }

  /** Refs issued so far (a removed element's ref stays retired). */
  get issued(): number {
    return this.next - 1;
  }
}
