/**
 * Steward's own reading of what a control does, from its visible wording: used only where the
 * page declares nothing (controls inferred from the DOM). It errs towards "needs approval".
 */

/** Words on controls whose effect a person would want to confirm. */
const CONSEQUENTIAL =
  /\b(cancel|delete|remove|destroy|discard|pay|purchase|buy|checkout|check out|place order|confirm|submit|send|transfer|book|reserve|subscribe|unsubscribe|close account|deactivate|sign|refund|return|withdraw|approve|reject|archive|publish|revoke|reset)\b/i;

/** Words that mean money moves. */
const PAYMENT = /\b(pay|payment|checkout|check out|purchase|buy now|place order|charge|donate|top up|card number|cvv|cvc|iban)\b/i;

/** Links that do something rather than show something. */
const ACTING_LINK = /\b(delete|remove|cancel|log ?out|sign ?out|unsubscribe|pay|confirm)\b/i;

export function soundsConsequential(text: string): boolean {
  return CONSEQUENTIAL.test(text);
}

export function touchesPayment(text: string): boolean {
  return PAYMENT.test(text);
}

export function linkActs(text: string): boolean {
  return ACTING_LINK.test(text);
}
