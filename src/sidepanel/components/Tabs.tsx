import { useRef } from 'preact/hooks';

export interface TabSpec<Id extends string> {
  id: Id;
  label: string;
  /** A count shown after the label. */
  badge?: number;
  /** How the count is read out, e.g. "waiting". */
  badgeLabel?: string;
}

/**
 * A WAI-ARIA tab list: one tab in the Tab order (roving tabindex), arrow keys / Home / End move
 * between tabs and select them (automatic activation: views are cheap to show).
 */
export function Tabs<Id extends string>({ tabs, selected, onSelect, label }: { tabs: ReadonlyArray<TabSpec<Id>>; selected: Id; onSelect: (id: Id) => void; label: string }) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const move = (index: number) => {
    const n = tabs.length;
    const i = ((index % n) + n) % n;
    onSelect(tabs[i]!.id);
    refs.current[i]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const keys: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const to = keys[event.key];
    if (to === undefined) return;
    event.preventDefault();
    move(to);
  };
  return (
    <div role="tablist" aria-label={label} class="tabs">
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          role="tab"
          type="button"
          id={`tab-${t.id}`}
          aria-controls={`panel-${t.id}`}
          aria-selected={t.id === selected}
          tabIndex={t.id === selected ? 0 : -1}
          onClick={() => onSelect(t.id)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {t.label}
          {t.badge ? (
            <>
              <span class="count" aria-hidden="true">
                {t.badge}
              </span>
              <span class="sr-only">
                {' '}
                ({t.badge} {t.badgeLabel ?? ''})
              </span>
            </>
          ) : null}
        </button>
      ))}
    </div>
  );
}
