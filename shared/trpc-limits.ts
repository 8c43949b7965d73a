/**
 * Calls one tRPC batch may carry. The server refuses a larger batch with 400 before any call
 * runs (each call also counts against the rate limit); clients split their batches at it.
 */
export const TRPC_MAX_BATCH_SIZE = 10;
