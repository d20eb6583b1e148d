import { useState } from 'preact/hooks';
import { refusePairingSource } from '../background-client.ts';
import { floodingSources } from '../lib/pairing-sources.ts';
import { forgetPairing, pendingPairings, reloadPairings } from '../pairings-store.ts';
import { useSiteStatus } from '../use-site-status.ts';
import { PairingCard, type PairingDecided } from './PairingCard.tsx';

/**
 * MCP clients waiting to pair, oldest first, above the approval cards; says what became of the last
 * one decided. A source with several requests waiting (a flood) gets one button that refuses them all.
 */
export function PairingList() {
  const pending = pendingPairings.value;
  const { sites } = useSiteStatus();
  const [outcome, setOutcome] = useState('');
  const [busy, setBusy] = useState(false);
  const currentSite = sites?.tab?.allowed ? sites.tab.origin : undefined;

  const onDecided = (d: PairingDecided) => {
    setOutcome(
      d.outcome === 'paired'
        ? `Paired ${d.client}${d.agent_id ? ` as ${d.agent_id}` : ''}. It collects its token on its next call; you can revoke it in Tokens.`
        : (d.why ?? `Refused the pairing request from ${d.client}.`),
    );
    forgetPairing(d.pairing_id);
    void reloadPairings();
  };

  const refuseSource = async (source: string, words: string) => {
    setBusy(true);
    try {
      const { refused } = await refusePairingSource(source);
      setOutcome(`Refused ${refused} pairing request${refused === 1 ? '' : 's'} from ${words}; its further requests are refused too.`);
    } catch (e) {
      setOutcome((e as Error).message);
    } finally {
      setBusy(false);
      void reloadPairings();
    }
  };

  if (pending.length === 0 && !outcome) return null;
  return (
    <div class="stack pairings">
      <p class="note" role="status">
        {outcome}
      </p>
      {floodingSources(pending).map((g) => (
        <div class="card flood" key={g.source}>
          <p>
            {g.requests.length} pairing requests came from one source ({g.words}), under the names {[...new Set(g.requests.map((r) => `“${r.client.name}”`))].join(', ')}.
          </p>
          <button type="button" class="danger" disabled={busy} onClick={() => void refuseSource(g.source, g.words)}>
            Refuse all {g.requests.length} requests from {g.words}
          </button>
        </div>
      ))}
      {pending.map((p) => (
        <PairingCard key={p.pairing_id} pairing={p} allowedSites={sites?.allowed} currentSite={currentSite} onDecided={onDecided} />
      ))}
    </div>
  );
}
