import { pluralOf, t } from '../../base/i18n.ts';

/** Three wrong codes end a pairing request (src/mcp/pairing-book.ts). */
const MAX_WRONG_CODES = 3;

/**
 * Why Steward did not pair a client with the code the person entered, in the person's words from
 * the refusal's code; `wrongBefore` is the request's count of wrong codes as the card showed it.
 * A code the panel does not know keeps the worker's own sentence. Pure.
 */
export function pairingRefusalText(error: { code?: unknown; message: string }, client: string, wrongBefore: number): string {
  switch (error.code) {
    case 'PAIRING_CODE_MISMATCH': {
      const left = Math.max(1, MAX_WRONG_CODES - wrongBefore - 1);
      return t(pluralOf(left) === 'one' ? 'pairing_code_mismatch_one' : 'pairing_code_mismatch_other', client, left);
    }
    // On a decision, only the last wrong code refuses the request.
    case 'PAIRING_REFUSED':
      return t('pairing_code_refused_after', MAX_WRONG_CODES, client);
    case 'PAIRING_EXPIRED':
      return t('pairing_request_expired');
    case 'PAIRING_UNKNOWN':
      return t('pairing_no_longer_waiting');
    default:
      return error.message;
  }
}
