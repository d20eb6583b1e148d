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
      <h2 id="welcome-heading">Welcome to Steward</h2>
      <p class="note">Agents act in this browser only through Steward: it tells them what a page is and what they may do, and asks you before anything that matters.</p>
      <ol class="welcome-steps">
        <li>
          <strong>Allow a site.</strong> Steward reads only the sites you allow: open one in this window, then press “Allow” in This tab.{' '}
          {allowed > 0 ? (
            <span class="done">
              ✓ Done: {allowed} site{allowed === 1 ? '' : 's'} allowed.
            </span>
          ) : (
            <button type="button" class="link nav" onClick={() => onOpen('tab')}>
              Go to This tab
            </button>
          )}
        </li>
        <li>
          <strong>Set the co-pilot’s model</strong> in Settings: an OpenAI-compatible server, the Anthropic API or Chrome’s built-in model (<code>npm start</code> sets up its demo model, scripted
          replies rather than a language model).{' '}
          {model?.ready ? (
            <span class="done">✓ Done: {model.model_label} is ready.</span>
          ) : (
            <button type="button" class="link nav" onClick={() => onOpen('settings')}>
              Set a model in Settings
            </button>
          )}
        </li>
        <li>
          <strong>Optionally, connect an MCP client</strong> (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex): in a terminal run <code>steward-bridge install</code> once and restart the
          browser, then <code>steward-bridge config &lt;client&gt;</code> prints that client’s settings (<code>--write</code> adds them). The client then asks to pair here, with a code you confirm.
        </li>
      </ol>
      <button type="button" class="secondary" onClick={() => void dismissWelcome()}>
        Dismiss the welcome
      </button>
    </section>
  );
}
