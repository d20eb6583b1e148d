import { HANDSHAKE_FROM_ISOLATED, HANDSHAKE_FROM_MAIN } from '../../protocol/page-channel-names.ts';
import type { PortOffer } from '../../protocol/page-channel.ts';

/**
 * Hands one end of a MessageChannel to the isolated world with synchronous DOM events at
 * document_start, before any page script exists to listen. Whichever script runs second
 * completes the exchange: the main world offers the port now, and again if the isolated world
 * asks later. The isolated world takes it by cancelling the event; from then on no offer is made.
 */
export function offerPortToIsolatedWorld(port: MessagePort, onTaken?: () => void, offer_: PortOffer = { polyfill: false }): void {
  const offer = () => {
    const event = new MessageEvent(HANDSHAKE_FROM_MAIN, { ports: [port], data: offer_, cancelable: true });
    const taken = !document.dispatchEvent(event);
    if (taken) {
      document.removeEventListener(HANDSHAKE_FROM_ISOLATED, offer);
      onTaken?.();
    }
    return taken;
  };
  if (!offer()) document.addEventListener(HANDSHAKE_FROM_ISOLATED, offer);
}
