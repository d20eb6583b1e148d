import { orgPolicy } from '../policy-store.ts';

/** Above every view: that the organisation manages Steward here, and what is wrong with its policy (whose strictest reading applies meanwhile). */
export function PolicyBanner() {
  const { policy, problems } = orgPolicy.value;
  if (problems.length > 0)
    return (
      <section class="warn-box policy-banner" role="alert" aria-label="Organisation policy problems">
        <p>
          <strong>Your organisation’s policy for Steward is invalid.</strong> Until your administrator fixes it, Steward applies its strictest reading:
        </p>
        <ul>
          {problems.map((p) => (
            <li key={p.path}>
              <code>{p.path || p.key}</code>: {p.message}. Applied: {p.applied}.
            </li>
          ))}
        </ul>
      </section>
    );
  if (policy.managed.length === 0) return null;
  return (
    <p class="note managed-badge" aria-label="Managed by your organisation">
      Managed by your organisation: {policy.managed.join(', ')}.
    </p>
  );
}
