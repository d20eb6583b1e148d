import { t } from '../../base/i18n.ts';

/**
 * The link to the privacy statement: docs/PRIVACY.md, shipped in the package as PRIVACY.txt
 * (vite.config.ts), so it opens from the extension itself, without a network, as plain text.
 */
export function PrivacyStatement() {
  return (
    <p class="privacy-statement">
      <a href="/PRIVACY.txt" target="_blank" rel="noopener">
        {t('keeping_privacy_link')}
      </a>
    </p>
  );
}
