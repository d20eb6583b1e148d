import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { DurableMemoryRecord } from '../../protocol/memory.ts';
import { deleteMemory, forgetSite, memoryEntries, subscribe } from '../background-client.ts';
import { forgetWords, memoryWords } from '../lib/memory-words.ts';
import { useCurrentOrigin } from '../use-current-origin.ts';

/** An example site address, the same in every language. */
const EXAMPLE_SITE = 'https://shop.example';

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
        (e: Error) => alive && setError(t('keeping_memory_load_failed', e.message)),
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
      setStatus(deleted ? t('keeping_memory_deleted') : t('keeping_memory_already_gone'));
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
      return setError(t('keeping_forget_bad_site'));
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
      <legend>{t('keeping_memory_legend')}</legend>
      <p class="note">{t('keeping_memory_intro')}</p>
      {entries === undefined && !error && <p class="muted">{t('app_loading')}</p>}
      {entries?.length === 0 && <p class="muted">{t('keeping_memory_empty')}</p>}
      {entries && entries.length > 0 && (
        <ul class="memory-list" aria-label={t('keeping_memory_entries_label')}>
          {entries.map(({ record, expired }) => {
            const words = memoryWords(record);
            return (
              <li key={record.id}>
                <span>
                  <strong>{words.title}</strong>
                  {expired ? ` ${t('keeping_memory_history_only')}` : ''}
                  <br />
                  <span class="muted">{words.detail}</span>
                </span>{' '}
                <button type="button" class="secondary" onClick={() => void remove(record.id)} aria-label={t('keeping_memory_delete_label', words.title)}>
                  {t('keeping_memory_delete')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form class="settings" onSubmit={(e) => void forget(e)} noValidate aria-label={t('keeping_forget_label')}>
        <div class="field">
          <label for="forget-site">{t('keeping_forget_label')}</label>
          <input id="forget-site" value={origin} placeholder={EXAMPLE_SITE} onInput={(e) => setOrigin(e.currentTarget.value)} />
        </div>
        <p class="note">{t('keeping_forget_note')}</p>
        <button type="submit" class="danger">
          {t('keeping_forget_submit')}
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
