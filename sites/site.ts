import type { IncomingMessage, ServerResponse } from 'node:http';

/** The demo sites, each served on its own port (so each is its own origin). */
export const SITE_NAMES = ['shop', 'clinic', 'lab'] as const;
export type SiteName = (typeof SITE_NAMES)[number];

/** One demo site: a request listener plus its server-side state. */
export interface DemoSite {
  name: SiteName;
  /** One line for humans (printed by `npm run sites`). */
  title: string;
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Back to the initial seed (same as `POST /__demo/reset`). */
  reset(): void;
  /** Everything the server knows (same as `GET /__demo/state`). */
  state(): Record<string, unknown>;
}
