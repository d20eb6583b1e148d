import { t } from '../../base/i18n.ts';
import { inputRows, isLongValue, showValue } from '../lib/values.ts';

/** A value in full: long or multi-line ones in a box that scrolls (and takes keyboard focus to scroll). */
export function FullValue({ text, label }: { text: string; label: string }) {
  if (!isLongValue(text)) return <>{text}</>;
  return (
    <div class="value scroll" tabIndex={0} role="region" aria-label={t('tools_scroll_value', label, text.length)}>
      {text}
    </div>
  );
}

/**
 * The exact input an action will send, one row per field — nested fields opened to their own rows,
 * nothing cut; where the page currently shows a value for the same key, it sits beside it so a
 * person sees what would change.
 */
export function InputTable({ input, current, label }: { input: Record<string, unknown>; current: Map<string, unknown>; label: string }) {
  const rows = inputRows(input);
  if (rows.length === 0) return <p class="note">{t('tools_no_input')}</p>;
  const withCurrent = current.size > 0;
  return (
    <table class="params" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{t('card_field')}</th>
          <th scope="col">{t('tools_will_send')}</th>
          {withCurrent && <th scope="col">{t('tools_now_on_page')}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, path, value }) => {
          // The page's current value is known per top-level key only.
          const top = path === key;
          const changed = withCurrent && top && current.has(key) && showValue(current.get(key)) !== showValue(value);
          return (
            <tr key={path} class={changed ? 'changed' : undefined}>
              <th scope="row">
                <code>{path}</code>
              </th>
              <td class="value">
                <FullValue text={showValue(value)} label={path} />
              </td>
              {withCurrent && <td class="value">{top && current.has(key) ? <FullValue text={showValue(current.get(key))} label={t('tools_value_now', path)} /> : '—'}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
