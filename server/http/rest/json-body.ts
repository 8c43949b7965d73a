import type { Context } from 'hono';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { readBodyText } from '../request-body.js';

/** A JSON request body (at most `maxBytes`); anything unparsable is a 400 naming what was expected. */
export async function readJsonBody(c: Context<AppEnv>, maxBytes: number, expected: string): Promise<unknown> {
  const text = await readBodyText(c, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError('bad_request', `The body must be JSON: ${expected}`);
  }
}
