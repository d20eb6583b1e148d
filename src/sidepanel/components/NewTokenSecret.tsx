import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { Words } from './Words.tsx';

/**
 * The secret of a token just minted, shown this once: Steward keeps only its hash, so after
 * "Done" (or closing the panel) nobody can show it again; the person mints a new token instead.
 */
export function NewTokenSecret({ tokenId, agentId, secret, onDone }: { tokenId: string; agentId: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState('');
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [secret]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(t('tokens_secret_copied'));
    } catch {
      field.current?.select();
      setCopied(t('tokens_secret_copy_failed'));
    }
  };

  return (
    <section class="card secret" aria-labelledby="new-secret-heading">
      <h3 id="new-secret-heading">{t('tokens_secret_heading', tokenId)}</h3>
      <p class="warn-text" id="new-secret-warning">
        <Words id="tokens_secret_warning" parts={[<code>{agentId}</code>]} />
      </p>
      <label for="new-secret-value" class="note">
        {t('tokens_secret_label')}
      </label>
      <input id="new-secret-value" ref={field} readOnly value={secret} aria-describedby="new-secret-warning" spellcheck={false} autocomplete="off" onFocus={(e) => e.currentTarget.select()} />
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          {t('tokens_secret_copy')}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          {t('tokens_secret_done')}
        </button>
      </div>
      <p role="status" class="note">
        {copied}
      </p>
    </section>
  );
}
