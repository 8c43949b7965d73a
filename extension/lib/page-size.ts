/**
 * Page size of the active and expired lists (fixed by the server). Not in api-client.ts: the
 * file host shares that module with the popup, which then loads it as a chunk of its own.
 */
export const PAGE_SIZE = 50;
