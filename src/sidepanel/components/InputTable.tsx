import { showValue } from '../lib/values.ts';

/**
 * The exact input an action will send, one row per key; where the page currently shows a value
 * for the same key, it sits beside it so a person sees what would change.
 */
export function InputTable({ input, current, label }: { input: Record<string, unknown>; current: Map<string, unknown>; label: string }) {
  const keys = Object.keys(input);
  if (keys.length === 0) return <p class="note">No input: the action takes no parameters.</p>;
  const withCurrent = current.size > 0;
  return (
    <table class="params" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Will send</th>
          {withCurrent && <th scope="col">Now on the page</th>}
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const changed = withCurrent && current.has(k) && showValue(current.get(k)) !== showValue(input[k]);
          return (
            <tr key={k} class={changed ? 'changed' : undefined}>
              <th scope="row">
                <code>{k}</code>
              </th>
              <td class="value">{showValue(input[k])}</td>
              {withCurrent && <td class="value">{current.has(k) ? showValue(current.get(k)) : '—'}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
