import { useEffect, useRef, useState } from 'preact/hooks';

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
      setCopied('Copied.');
    } catch {
      field.current?.select();
      setCopied('Could not copy automatically: it is selected, copy it with Ctrl+C.');
    }
  };

  return (
    <section class="card secret" aria-labelledby="new-secret-heading">
      <h3 id="new-secret-heading">Secret for {tokenId}</h3>
      <p class="warn-text" id="new-secret-warning">
        Copy it now, it will not be shown again. Give it only to <code>{agentId}</code>: whoever holds it acts as that agent. Steward keeps only its hash.
      </p>
      <label for="new-secret-value" class="note">
        Token secret
      </label>
      <input id="new-secret-value" ref={field} readOnly value={secret} aria-describedby="new-secret-warning" spellcheck={false} autocomplete="off" onFocus={(e) => e.currentTarget.select()} />
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done, hide it
        </button>
      </div>
      <p role="status" class="note">
        {copied}
      </p>
    </section>
  );
}
