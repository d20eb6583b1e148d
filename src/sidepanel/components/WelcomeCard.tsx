import { pluralOf, t } from '../../base/i18n.ts';
import { said } from '../lib/phrases.ts';
import { Words } from './Words.tsx';
import { dismissWelcome } from '../welcome-store.ts';
import { useModelStatus } from '../use-model-status.ts';
import { useSiteStatus } from '../use-site-status.ts';

/**
 * The first-run welcome: three steps, each leading to the panel's own control for it (the site's
 * "Allow" in This tab, the model in Settings); the MCP step is done in a terminal, so it is told in
 * words. Shown above the views until dismissed (src/sidepanel/welcome-store.ts).
 */
export function WelcomeCard({ onOpen }: { onOpen: (view: 'tab' | 'settings') => void }) {
  const { sites } = useSiteStatus();
  const { status: model } = useModelStatus();
  const allowed = sites?.allowed.length ?? 0;
  return (
    <section class="card welcome" aria-labelledby="welcome-heading">
      <h2 id="welcome-heading">{t('welcome_heading')}</h2>
      <p class="note">{t('welcome_intro')}</p>
      <ol class="welcome-steps">
        <li>
          <strong>{t('welcome_allow_title')}</strong> {t('welcome_allow_text')}{' '}
          {allowed > 0 ? (
            <span class="done">{pluralOf(allowed) === 'one' ? t('welcome_sites_done_one', allowed) : t('welcome_sites_done_other', allowed)}</span>
          ) : (
            <button type="button" class="link nav" onClick={() => onOpen('tab')}>
              {t('welcome_go_tab')}
            </button>
          )}
        </li>
        <li>
          <Words id="welcome_model" parts={[<strong>{t('welcome_model_title')}</strong>, <code>npm start</code>]} />{' '}
          {model?.ready ? (
            <span class="done">{t('welcome_model_done', said(model.model_label_said, model.model_label))}</span>
          ) : (
            <button type="button" class="link nav" onClick={() => onOpen('settings')}>
              {t('welcome_set_model')}
            </button>
          )}
        </li>
        <li>
          <Words id="welcome_mcp" parts={[<strong>{t('welcome_mcp_title')}</strong>, <code>steward-bridge install</code>, <code>steward-bridge config &lt;client&gt;</code>, <code>--write</code>]} />
        </li>
      </ol>
      <button type="button" class="secondary" onClick={() => void dismissWelcome()}>
        {t('welcome_dismiss')}
      </button>
    </section>
  );
}
