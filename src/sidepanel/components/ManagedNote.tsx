import { t } from '../../base/i18n.ts';
import type { ComponentChildren } from 'preact';

/** Marks a setting the organisation's policy holds; the control beside it is disabled or capped. */
export function ManagedNote({ children }: { children: ComponentChildren }) {
  return (
    <p class="note managed" data-managed="true">
      <strong>{t('managed_set_by')}</strong>: {children}
    </p>
  );
}
