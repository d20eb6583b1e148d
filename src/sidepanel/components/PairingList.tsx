import { useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
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
    setOutcome(d.outcome === 'paired' ? (d.agent_id ? t('pairing_paired_as', d.client, d.agent_id) : t('pairing_paired', d.client)) : (d.why ?? t('pairing_refused', d.client)));
    forgetPairing(d.pairing_id);
    void reloadPairings();
  };

  const refuseSource = async (source: string, words: string) => {
    setBusy(true);
    try {
      const { refused } = await refusePairingSource(source);
      setOutcome(pluralOf(refused) === 'one' ? t('pairing_refused_source_one', refused, words) : t('pairing_refused_source_other', refused, words));
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
          <p>{t('pairing_flood', g.requests.length, g.words, [...new Set(g.requests.map((r) => `“${r.client.name}”`))].join(', '))}</p>
          <button type="button" class="danger" disabled={busy} onClick={() => void refuseSource(g.source, g.words)}>
            {t('pairing_refuse_all', g.requests.length, g.words)}
          </button>
        </div>
      ))}
      {pending.map((p) => (
        <PairingCard key={p.pairing_id} pairing={p} allowedSites={sites?.allowed} currentSite={currentSite} onDecided={onDecided} />
      ))}
    </div>
  );
}
