import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
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
      (e: Error) => setError(t('tokens_load_failed', e.message)),
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
      <h2>{t('tokens_heading')}</h2>
      <p class="muted">{t('tokens_intro')}</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {items === undefined && !error && <p class="muted">{t('app_loading')}</p>}
      {items !== undefined && (
        <div class="field check">
          <input id="show-all-tokens" type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} />
          <label for="show-all-tokens">{hidden > 0 && !showAll ? t('tokens_show_all_count', hidden) : t('tokens_show_all')}</label>
        </div>
      )}
      {items !== undefined && agents.length === 0 && <p class="muted">{showAll ? t('tokens_none') : t('tokens_none_active')}</p>}
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
