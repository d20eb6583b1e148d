import { t } from '../../base/i18n.ts';
import { orgPolicy } from '../policy-store.ts';

/** Above every view: that the organisation manages Steward here, and what is wrong with its policy (whose strictest reading applies meanwhile). */
export function PolicyBanner() {
  const { policy, problems } = orgPolicy.value;
  if (problems.length > 0)
    return (
      <section class="warn-box policy-banner" role="alert" aria-label={t('policy_problems_label')}>
        <p>
          <strong>{t('policy_invalid')}</strong> {t('policy_strictest')}
        </p>
        <ul>
          {problems.map((p) => (
            <li key={p.path}>
              <code>{p.path || p.key}</code>: {t('policy_problem', p.message, p.applied)}
            </li>
          ))}
        </ul>
      </section>
    );
  if (policy.managed.length === 0) return null;
  return (
    <p class="note managed-badge" aria-label={t('policy_managed_label')}>
      {t('policy_managed', policy.managed.join(', '))}
    </p>
  );
}
