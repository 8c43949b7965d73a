import type { HttpBindings } from '@hono/node-server';
import type { PageSession } from './middleware/session.js';
import type { RequestContext } from './request-context.js';
import type { PageLanguage } from './pages/i18n/i18n-context.js';
import type { Brand } from '../branding/brand.js';

/** Hono's environment for this app: Node bindings plus the per-request context. */
export interface AppEnv {
  Bindings: HttpBindings;
  /** `pageSession` is set by the session middleware on page routes only. */
  Variables: { ctx: RequestContext; requestId: string; pageSession?: PageSession; language?: PageLanguage; brand?: Brand };
}
