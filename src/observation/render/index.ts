// LLM rendering of a PageSnapshot and the calls that reach what it collapsed (pure).
export { renderObserved, renderSnapshot } from './render.ts';
export { query, expand } from './query.ts';
export { approxTokens } from './tokens.ts';
