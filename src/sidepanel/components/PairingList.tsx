import { useState } from 'preact/hooks';
import { forgetPairing, pendingPairings, reloadPairings } from '../pairings-store.ts';
import { useSiteStatus } from '../use-site-status.ts';
import { PairingCard, type PairingDecided } from './PairingCard.tsx';

/** MCP clients waiting to pair, oldest first, above the approval cards; says what became of the last one decided. */
export function PairingList() {
  const pending = pendingPairings.value;
  const { sites } = useSiteStatus();
  const [outcome, setOutcome] = useState('');

  const onDecided = (d: PairingDecided) => {
    setOutcome(
      d.outcome === 'paired'
        ? `Paired ${d.client}${d.agent_id ? ` as ${d.agent_id}` : ''}. It collects its token on its next call; you can revoke it in Tokens.`
        : (d.why ?? `Refused the pairing request from ${d.client}.`),
    );
    forgetPairing(d.pairing_id);
    void reloadPairings();
  };

  if (pending.length === 0 && !outcome) return null;
  return (
    <div class="stack pairings">
      <p class="note" role="status">
        {outcome}
      </p>
      {pending.map((p) => (
        <PairingCard key={p.pairing_id} pairing={p} allowedSites={sites?.allowed} onDecided={onDecided} />
      ))}
    </div>
  );
}
