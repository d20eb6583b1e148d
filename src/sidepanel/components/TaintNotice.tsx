import { useState } from 'preact/hooks';
import { clearTaint } from '../background-client.ts';
import { clockTime } from '../lib/time.ts';
import { now } from '../now.ts';

/**
 * Page content has reached this agent, so Steward asks the person for each of its consequential
 * actions. Only the person clears that (after starting the agent afresh), with a confirm step;
 * the worker writes an audit entry.
 */
export function TaintNotice({ agentId, taint, onCleared }: { agentId: string; taint: { at: string; source: string }; onCleared: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const clear = async () => {
    setBusy(true);
    setError('');
    try {
      await clearTaint(agentId);
      setConfirming(false);
      onCleared();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="taint" aria-label={`Page content reached ${agentId}`}>
      <p>
        Page content has reached this agent since {clockTime(taint.at, now.value)} ({taint.source}). What it read may steer what it asks for, so each of its consequential actions waits for you.
      </p>
      {confirming ? (
        <div class="confirm" role="group" aria-label={`Confirm clearing ${agentId}`}>
          <p>Clear this only if the agent starts afresh, without what it read. Steward records that you cleared it.</p>
          <button type="button" class="danger" disabled={busy} onClick={() => void clear()}>
            Yes, clear
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          Clear page-content mark
        </button>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
