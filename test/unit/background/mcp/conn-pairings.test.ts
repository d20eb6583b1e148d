import { describe, expect, it } from 'vitest';
import { ConnPairings } from '../../../../src/background/mcp/conn-pairings.ts';

describe('pairings of a bridge connection', () => {
  it('withdraws the requests a closed connection opened and never collected, and nothing of another connection', async () => {
    const withdrawn: string[] = [];
    const conns = new ConnPairings(async (id) => void withdrawn.push(id));
    conns.opened('c1', 'pair_aaaaaaaa');
    conns.opened('c1', 'pair_bbbbbbbb');
    conns.opened('c2', 'pair_cccccccc');
    conns.settled('c1', 'pair_bbbbbbbb');
    await conns.closed('c1');
    expect(withdrawn).toEqual(['pair_aaaaaaaa']);
    await conns.closed('c1');
    expect(withdrawn).toEqual(['pair_aaaaaaaa']);
  });

  it('keeps going when one withdrawal fails', async () => {
    const withdrawn: string[] = [];
    const conns = new ConnPairings(async (id) => {
      if (id === 'pair_aaaaaaaa') throw new Error('storage gone');
      withdrawn.push(id);
    });
    conns.opened('c1', 'pair_aaaaaaaa');
    conns.opened('c1', 'pair_bbbbbbbb');
    await conns.closed('c1');
    expect(withdrawn).toEqual(['pair_bbbbbbbb']);
  });
});
