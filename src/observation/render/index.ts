// LLM rendering of a PageSnapshot and the calls that reach what it collapsed (pure).
export { renderSnapshot, DEFAULT_MAX_CHARS, type RenderExtras, type ObservedSummary } from './render.ts';
export { query, expand, MAX_QUERY_LIMIT, type SnapshotQuery, type QueryResult, type ExpandOptions } from './query.ts';
export { approxTokens } from './tokens.ts';
