import type { Context } from 'hono';
import { routePath } from 'hono/route';

/**
 * The pattern of the route that answered (`/api/v2/pushes/:token`), or `(no route)`: what logs
 * and metrics name a request by. Never the path itself: URL tokens are secrets (whoever has one
 * can open the push), and a mistyped path can hold one too.
 */
export function routePattern(c: Context): string {
  const pattern = routePath(c, -1);
  return !pattern || pattern.endsWith('*') ? '(no route)' : pattern;
}
