import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';

/**
 * A page's text the person may read whole: past `limit` characters (what agents receive) it shows
 * the start, says that agents get only that much, and opens in full behind "more".
 */
export function LongText({ text, limit, label }: { text: string; limit: number; label: string }) {
  const [open, setOpen] = useState(false);
  if (text.length <= limit) return <>{text}</>;
  return (
    <>
      {open ? text : `${text.slice(0, limit - 1)}…`}{' '}
      <button type="button" class="link" aria-expanded={open} aria-label={open ? t('tools_less_of', label) : t('tools_more_of', label)} onClick={() => setOpen(!open)}>
        {open ? t('tools_less') : t('tools_more')}
      </button>{' '}
      <span class="note">{t('tools_agents_get', limit)}</span>
    </>
  );
}
