import { router } from './trpc.js';

// Placeholder: the catalogue helper replaces this with the catalogue procedures.
export const catalogueRouter = router({});
