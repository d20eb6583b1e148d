/**
 * Which pairing requests each MCP server process (a host connection) opened. Only that process
 * holds the claim secret, so when it goes (`conn-closed`) its requests can never be collected:
 * they are withdrawn, and a token the person already minted for one is revoked by the pairing book.
 */
export class ConnPairings {
  private readonly byConn = new Map<string, Set<string>>();

  constructor(private readonly withdraw: (pairingId: string) => Promise<void>) {}

  opened(conn: string, pairingId: string): void {
    const ids = this.byConn.get(conn) ?? new Set<string>();
    ids.add(pairingId);
    this.byConn.set(conn, ids);
  }

  /** A claim that ended the request (paired or refused): nothing left to withdraw. */
  settled(conn: string, pairingId: string): void {
    this.byConn.get(conn)?.delete(pairingId);
  }

  async closed(conn: string): Promise<void> {
    const ids = this.byConn.get(conn);
    this.byConn.delete(conn);
    for (const id of ids ?? []) await this.withdraw(id).catch((e) => console.warn('withdrawing a pairing failed', e));
  }
}
