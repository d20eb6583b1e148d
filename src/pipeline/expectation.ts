// The expected effect is part of the protocol (agents send it); the pipeline keeps its old import path.
export { ExpectedEffect } from '../protocol/expectation.ts';
