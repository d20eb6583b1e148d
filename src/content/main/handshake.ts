import { HANDSHAKE_FROM_ISOLATED, HANDSHAKE_FROM_MAIN } from '../page-bridge-protocol.ts';

/**
 * Hands one end of a MessageChannel to the isolated world with synchronous DOM events at
 * document_start, before any page script exists to listen. Whichever script runs second
 * completes the exchange: the main world offers the port now, and again if the isolated world
 * asks later. Once the isolated world has spoken on the channel, no further offers are made.
 */
export function offerPortToIsolatedWorld(channel: MessageChannel): void {
  let connected = false;
  const offer = () => {
    if (!connected) document.dispatchEvent(new MessageEvent(HANDSHAKE_FROM_MAIN, { ports: [channel.port2] }));
  };
  document.addEventListener(HANDSHAKE_FROM_ISOLATED, offer);
  channel.port1.addEventListener(
    'message',
    () => {
      connected = true;
      document.removeEventListener(HANDSHAKE_FROM_ISOLATED, offer);
    },
    { once: true },
  );
  offer();
}
