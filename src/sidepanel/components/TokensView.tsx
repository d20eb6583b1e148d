import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { TokenWithUsage } from '../../protocol/panel-channel.ts';
import { listTokens, subscribe } from '../background-client.ts';
import { tokenOwner } from '../lib/token-owner.ts';
import { MintTokenForm } from './MintTokenForm.tsx';
import { TokenCard } from './TokenCard.tsx';

type Item = z.infer<typeof TokenWithUsage>;

/** Delegated tokens grouped per agent (active ones unless asked), and the form to grant one. */
export function TokensView() {
  const [items, setItems] = useState<Item[] | undefined>(undefined);
  const [error, setError] = useState('');
  const [showAll, setShowAll] = useState(false);

  const load = () =>
    listTokens().then(
      (r) => (setItems(r.tokens), setError('')),
      (e: Error) => setError(`Could not load tokens: ${e.message}`),
    );

  useEffect(() => {
    void load();
    return subscribe((m) => {
      if (m.type === 'panel/tokens-changed' || m.type === 'panel/reconnected') void load();
    });
  }, []);

  const visible = (items ?? []).filter((i) => showAll || i.status === 'active');
  const agents = [...new Set(visible.map((i) => i.token.agent_id))].sort();
  const hidden = (items ?? []).length - visible.length;

  return (
    <>
      <h2>Agents &amp; tokens</h2>
      <p class="muted">An agent acts only with a token you granted: its own identity, never your credentials.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {items === undefined && !error && <p class="muted">Loading…</p>}
      {items !== undefined && (
        <div class="field check">
          <input id="show-all-tokens" type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} />
          <label for="show-all-tokens">Show expired and revoked tokens{hidden > 0 && !showAll ? ` (${hidden})` : ''}</label>
        </div>
      )}
      {items !== undefined && agents.length === 0 && <p class="muted">{showAll ? 'No tokens yet.' : 'No active tokens. No agent can act until you grant one below.'}</p>}
      {agents.map((agent) => {
        const owner = tokenOwner(visible.find((i) => i.token.agent_id === agent)!.token);
        return (
          <section key={agent} class="agent" aria-labelledby={`agent-${agent}`}>
            <h3 id={`agent-${agent}`}>
              {owner.label && <>{owner.label} </>}
              <code>{agent}</code>
              {owner.kind && <span class="badge tone-neutral">{owner.kind}</span>}
            </h3>
            <div class="stack">
              {visible
                .filter((i) => i.token.agent_id === agent)
                .map((i) => (
                  <TokenCard key={i.token.token_id} item={i} onRevoked={() => void load()} />
                ))}
            </div>
          </section>
        );
      })}
      <MintTokenForm onMinted={() => void load()} />
    </>
  );
}
