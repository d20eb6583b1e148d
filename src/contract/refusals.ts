import { AuthRefusalReason, type SiteErrorBody } from '../protocol/agent-contract.ts';
import { phrase, type Phrase } from '../protocol/phrase.ts';

/**
 * What a site's refusal means for the person and for the agent, and whether it ends Steward's
 * grant for the site (the panel then asks the person to connect again) or passes (retry, or fix
 * the request). The site's own message is shown as the site's words, never as ours.
 */

export interface RefusalMeaning {
  /** The 401's reason, when the site gave one. */
  reason?: AuthRefusalReason;
  /** The grant is dead: stop using it, mark it ended, ask the person to connect again. */
  ends_grant: boolean;
  /** For the person, in the side panel. */
  person: string;
  /** `person` as a phrase, for the panel to say in the person's language. */
  person_said: Phrase;
  /** For the agent: what happened and what (not) to do next. */
  agent: string;
}

/** Reasons after which the same token can never work again. */
const GRANT_ENDING: ReadonlySet<AuthRefusalReason> = new Set(['token_revoked', 'token_expired', 'key_mismatch', 'token_malformed']);

function endsGrant(reason: AuthRefusalReason): boolean {
  return GRANT_ENDING.has(reason);
}

/** The 401 reason in a refusal (`error.details.reason`), when it is one the contract defines. */
export function refusalReason(body: SiteErrorBody): AuthRefusalReason | undefined {
  if (body.error.code !== 'TOKEN_INVALID') return undefined;
  const parsed = AuthRefusalReason.safeParse(body.error.details?.reason);
  return parsed.success ? parsed.data : undefined;
}

const CONNECT_AGAIN = "connect again in Steward's side panel";

/** What `describeAuthRefusal` says to the person, as a phrase (the panel's sentences: src/sidepanel/lib/phrases.ts). */
export function authRefusalPhrase(site: string, reason: AuthRefusalReason): Phrase {
  switch (reason) {
    case 'token_revoked':
      return phrase('contract_revoked', { site });
    case 'token_expired':
      return phrase('contract_expired', { site });
    case 'key_mismatch':
    case 'token_malformed':
      return phrase('contract_key_refused', { site });
    case 'login_required':
      return phrase('contract_sign_in', { site });
    case 'signature_missing':
    case 'signature_invalid':
    case 'digest_mismatch':
      return phrase('contract_signature_refused', { site });
    case 'signature_expired':
    case 'nonce_replayed':
      return phrase('contract_stale', { site });
    case 'token_missing':
      return phrase('contract_token_missing', { site });
  }
}

/** The words for one 401 reason; `site` is the site's name as its contract gives it. */
export function describeAuthRefusal(site: string, reason: AuthRefusalReason): RefusalMeaning {
  const ends_grant = endsGrant(reason);
  const words = (person: string, agent: string): RefusalMeaning => ({ reason, ends_grant, person, person_said: authRefusalPhrase(site, reason), agent });
  switch (reason) {
    case 'token_revoked':
      return words(
        `${site} revoked Steward's access. To let Steward act there again, ${CONNECT_AGAIN}.`,
        `${site} revoked Steward's access; nothing was done. Do not retry: the person must ${CONNECT_AGAIN}.`,
      );
    case 'token_expired':
      return words(
        `Steward's access to ${site} has expired. To let Steward act there again, ${CONNECT_AGAIN}.`,
        `Steward's access to ${site} has expired; nothing was done. Do not retry: the person must ${CONNECT_AGAIN}.`,
      );
    case 'key_mismatch':
    case 'token_malformed':
      return words(
        `${site} no longer accepts Steward's access (the token does not match Steward's key). To let Steward act there again, ${CONNECT_AGAIN}.`,
        `${site} refused Steward's access token; nothing was done. Do not retry: the person must ${CONNECT_AGAIN}.`,
      );
    case 'login_required':
      return words(`Sign in to ${site} first, then connect again.`, `${site} needs the person to be signed in before it grants access; ask them to sign in to ${site}.`);
    case 'signature_missing':
    case 'signature_invalid':
    case 'digest_mismatch':
      return words(
        `${site} refused Steward's request signature. Nothing was done; if it keeps happening, disconnect and ${CONNECT_AGAIN}.`,
        `${site} refused Steward's request signature; nothing was done. Retrying may work once; if not, report it to the person.`,
      );
    case 'signature_expired':
    case 'nonce_replayed':
      return words(
        `${site} refused a request from Steward as stale or repeated (check this computer's clock). Nothing was done.`,
        `${site} refused the request as stale or repeated; nothing was done. Retrying may work.`,
      );
    case 'token_missing':
      return words(`${site} did not receive Steward's access token. Nothing was done.`, `${site} did not receive Steward's access token; nothing was done. Retrying may work.`);
  }
}

/** The meaning of any refusal body: a 401 by its reason, anything else as the site's own error. */
export function describeRefusal(site: string, body: SiteErrorBody): RefusalMeaning {
  const reason = refusalReason(body);
  if (reason !== undefined) return describeAuthRefusal(site, reason);
  if (body.error.code === 'TOKEN_INVALID') {
    // A 401 without a reason we know: the token is refused, and nothing says it will work again.
    return {
      ends_grant: true,
      person: `${site} refused Steward's access. To let Steward act there again, ${CONNECT_AGAIN}.`,
      person_said: phrase('contract_access_refused', { site }),
      agent: `${site} refused Steward's access token; nothing was done. Do not retry: the person must ${CONNECT_AGAIN}.`,
    };
  }
  const hint = body.error.recovery_hint ? ` ${body.error.recovery_hint}` : '';
  return {
    ends_grant: false,
    person: `${site} refused: ${body.error.message}`,
    person_said: phrase('contract_site_refused', { site, message: body.error.message }),
    agent: `${site} refused (${body.error.code}): ${body.error.message}${hint}`.slice(0, 4096),
  };
}
