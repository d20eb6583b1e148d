// The PageSnapshot contract lives with the other cross-context shapes in src/protocol/.
export type * from '../protocol/snapshot.ts';
