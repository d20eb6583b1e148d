/**
 * The person's session on the shop: the demo customer is always signed in as Jordan Lee, and any
 * HTML page hands the browser a `larkspur_session` cookie. Granting an agent a token needs it,
 * so only the person's own browser (not an agent on its own) can start a grant.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const SESSION_COOKIE = 'larkspur_session';
/** Bound on live sessions (oldest first out). */
const MAX_SESSIONS = 1000;

export class SessionBook {
  private sessions = new Set<string>();

  /** Sets the cookie unless the request already carries a live session. */
  ensure(req: IncomingMessage, res: ServerResponse): void {
    if (this.has(req)) return;
    const id = crypto.randomUUID();
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value as string);
    this.sessions.add(id);
    res.setHeader('set-cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Lax; Path=/`);
  }

  has(req: IncomingMessage): boolean {
    const cookie = req.headers.cookie;
    if (typeof cookie !== 'string' || cookie.length > 8192) return false;
    for (const part of cookie.split(';')) {
      const [name, value] = part.trim().split('=', 2);
      if (name === SESSION_COOKIE && value !== undefined && this.sessions.has(value)) return true;
    }
    return false;
  }
}
