import type { ObserveReplyData } from '../../protocol/messages.ts';
import type { PageSnapshot, SnapshotElement } from '../../observation/snapshot.ts';

/**
 * Shrinks what crosses to the service worker after the first snapshot: the observer reports an
 * unchanged element as the very same object, so comparing identities against the previous
 * snapshot finds what changed without looking inside. A megabyte-sized 16k-element snapshot
 * becomes a list of refs plus the few elements that changed. Anything unexpected (another
 * sequence number, another document, most elements changed) falls back to the full snapshot.
 */
export class DeltaEncoder {
  private seq = 0;
  private last: Map<string, SnapshotElement> | undefined;
  private lastToken: string | undefined;

  encode(snapshot: PageSnapshot, since?: { documentToken: string; seq: number }): ObserveReplyData {
    const seq = ++this.seq;
    const previous = this.last;
    const previousSeq = seq - 1;
    const sameDocument = this.lastToken === snapshot.documentToken;
    this.last = new Map(snapshot.elements.map((e) => [e.ref, e]));
    this.lastToken = snapshot.documentToken;
    if (!since || !previous || !sameDocument || since.seq !== previousSeq || since.documentToken !== snapshot.documentToken) {
      return { kind: 'full', seq, snapshot };
    }
    const changed = snapshot.elements.filter((e) => previous.get(e.ref) !== e);
    if (changed.length > snapshot.elements.length / 2) return { kind: 'full', seq, snapshot };
    const { elements, ...rest } = snapshot;
    return {
      kind: 'delta',
      seq,
      baseSeq: since.seq,
      delta: { ...rest, elementRefs: elements.map((e) => e.ref), elementOrders: elements.map((e) => e.order ?? 0), changed },
    };
  }
}
