import type { HttpBindings } from '@hono/node-server';
import type { RequestContext } from './request-context.js';

/** Hono's environment for this app: Node bindings plus the per-request context. */
export interface AppEnv {
  Bindings: HttpBindings;
  Variables: { ctx: RequestContext };
}
