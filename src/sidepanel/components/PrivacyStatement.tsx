import statement from '../../../docs/PRIVACY.md?raw';

/** The privacy statement (docs/PRIVACY.md), shipped in the panel so it can be read without a network. */
export function PrivacyStatement() {
  return (
    <details class="privacy-statement">
      <summary>Privacy: what Steward keeps and what leaves your machine</summary>
      <pre class="privacy-text" tabIndex={0} aria-label="Privacy statement">
        {statement}
      </pre>
    </details>
  );
}
