import { describe, expect, it } from 'vitest';
import { AuthRefusalReason, SiteErrorBody } from '../../../src/protocol/agent-contract.ts';
import { describeAuthRefusal, describeRefusal, refusalReason } from '../../../src/contract/refusals.ts';

const tokenInvalid = (reason?: unknown) => SiteErrorBody.parse({ error: { code: 'TOKEN_INVALID', message: 'Refused.', retryable: false, ...(reason !== undefined ? { details: { reason } } : {}) } });

describe('refusals', () => {
  it('revoked, expired, key mismatch and a malformed token end the grant; the rest pass', () => {
    const ending = AuthRefusalReason.options.filter((reason) => describeAuthRefusal('Larkspur', reason).ends_grant);
    expect(ending.sort()).toEqual(['key_mismatch', 'token_expired', 'token_malformed', 'token_revoked']);
  });

  it('tells the person what happened and what to do, in the words of the brief', () => {
    expect(describeAuthRefusal('Larkspur', 'token_revoked').person).toBe("Larkspur revoked Steward's access. To let Steward act there again, connect again in Steward's side panel.");
    expect(describeAuthRefusal('Larkspur', 'token_expired').person).toMatch(/^Steward's access to Larkspur has expired\..*connect again in Steward's side panel/);
    expect(describeAuthRefusal('Larkspur', 'signature_invalid').person).toMatch(/Larkspur refused Steward's request signature/);
    expect(describeAuthRefusal('Larkspur', 'login_required').person).toBe('Sign in to Larkspur first, then connect again.');
  });

  it('tells the agent whether to retry', () => {
    for (const reason of AuthRefusalReason.options) {
      const { agent, ends_grant } = describeAuthRefusal('Larkspur', reason);
      expect(agent, reason).toContain('Larkspur');
      if (ends_grant) expect(agent, reason).toMatch(/Do not retry/);
    }
    expect(describeAuthRefusal('Larkspur', 'nonce_replayed').agent).toMatch(/Retrying may work/);
  });

  it('reads the reason from a TOKEN_INVALID body only, and only a reason the contract defines', () => {
    expect(refusalReason(tokenInvalid('token_revoked'))).toBe('token_revoked');
    expect(refusalReason(tokenInvalid('made_up'))).toBeUndefined();
    expect(refusalReason(SiteErrorBody.parse({ error: { code: 'SCOPE_DENIED', message: 'No.', retryable: false, details: { reason: 'token_revoked' } } }))).toBeUndefined();
  });

  it("describes any refusal: a 401 by reason, an unexplained 401 ends the grant, others are the site's own words", () => {
    expect(describeRefusal('Larkspur', tokenInvalid('token_expired'))).toMatchObject({ reason: 'token_expired', ends_grant: true });
    expect(describeRefusal('Larkspur', tokenInvalid())).toMatchObject({ ends_grant: true, person: expect.stringContaining("connect again in Steward's side panel") });
    const scope = describeRefusal(
      'Larkspur',
      SiteErrorBody.parse({ error: { code: 'SCOPE_DENIED', message: 'The token does not cover orders:pay.', retryable: false, recovery_hint: 'Connect with payment allowed.' } }),
    );
    expect(scope).toEqual({
      ends_grant: false,
      person: 'Larkspur refused: The token does not cover orders:pay.',
      person_said: { code: 'contract_site_refused', params: { site: 'Larkspur', message: 'The token does not cover orders:pay.' } },
      agent: 'Larkspur refused (SCOPE_DENIED): The token does not cover orders:pay. Connect with payment allowed.',
    });
  });
});
