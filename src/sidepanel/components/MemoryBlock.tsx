import { useEffect, useState } from 'preact/hooks';
import type { DurableMemoryRecord } from '../../protocol/memory.ts';
import { deleteMemory, forgetSite, memoryEntries, subscribe } from '../background-client.ts';
import { forgetWords, memoryWords } from '../lib/memory-words.ts';
import { useCurrentOrigin } from '../use-current-origin.ts';

type Entry = { record: DurableMemoryRecord; expired: boolean };

/** What Steward remembers between sessions, each entry with Delete, and "forget this site". */
export function MemoryBlock() {
  const [entries, setEntries] = useState<Entry[] | undefined>(undefined);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const current = useCurrentOrigin();
  const [origin, setOrigin] = useState('');

  useEffect(() => {
    let alive = true;
    const load = () =>
      memoryEntries().then(
        (r) => alive && (setEntries(r.entries), setError('')),
        (e: Error) => alive && setError(`Could not load Steward’s memory: ${e.message}`),
      );
    void load();
    const off = subscribe((m) => {
      if (m.type === 'panel/memory-changed' || m.type === 'panel/audit-changed' || m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      off();
    };
  }, []);
  useEffect(() => {
    if (current && origin === '') setOrigin(current);
  }, [current]);

  const remove = async (id: string) => {
    setStatus('');
    try {
      const { deleted } = await deleteMemory(id);
      setStatus(deleted ? 'Memory entry deleted.' : 'That entry was already gone.');
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const forget = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    let site: string;
    try {
      site = new URL(origin.trim()).origin;
    } catch {
      return setError('Enter the site as its address, e.g. https://shop.example.');
    }
    try {
      setStatus(forgetWords(site, await forgetSite(site)));
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <fieldset class="memory">
      <legend>Memory</legend>
      <p class="note">What Steward remembers to find work again: where resources were found, the state last seen (only ever shown as history), past actions.</p>
      {entries === undefined && !error && <p class="muted">Loading…</p>}
      {entries?.length === 0 && <p class="muted">Steward remembers nothing yet.</p>}
      {entries && entries.length > 0 && (
        <ul class="memory-list" aria-label="Memory entries">
          {entries.map(({ record, expired }) => {
            const words = memoryWords(record);
            return (
              <li key={record.id}>
                <span>
                  <strong>{words.title}</strong>
                  {expired ? ' (history only)' : ''}
                  <br />
                  <span class="muted">{words.detail}</span>
                </span>{' '}
                <button type="button" class="secondary" onClick={() => void remove(record.id)} aria-label={`Delete ${words.title}`}>
                  Delete
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form class="settings" onSubmit={(e) => void forget(e)} noValidate aria-label="Forget a site">
        <div class="field">
          <label for="forget-site">Forget a site</label>
          <input id="forget-site" value={origin} placeholder="https://shop.example" onInput={(e) => setOrigin(e.currentTarget.value)} />
        </div>
        <p class="note">Removes Steward’s access to it (and Chrome’s permission), any agent-contract grant, and everything Steward remembers about it. Recorded in Activity.</p>
        <button type="submit" class="danger">
          Forget site
        </button>
      </form>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <p class="note" role="status">
        {status}
      </p>
    </fieldset>
  );
}
