import type { PushApi } from './api-client';
import { describeError } from './errors';
import { DescribedError } from './problem';

/**
 * `api` whose failures are thrown as `DescribedError`s, worded for `serverUrl` and for whether
 * a token is sent (a 401 means something else with and without one).
 */
export function describedApi(api: PushApi, serverUrl: string, signedIn: boolean): PushApi {
  const wrap =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A) =>
      call(...args).catch((err: unknown) => {
        throw new DescribedError(describeError(err, serverUrl, signedIn));
      });
  return {
    version: wrap(api.version),
    limits: wrap(api.limits),
    create: wrap(api.create),
    active: wrap(api.active),
    expired: wrap(api.expired),
    audit: wrap(api.audit),
    expire: wrap(api.expire),
    createWithFiles: wrap(api.createWithFiles),
    requests: wrap(api.requests),
    closeRequest: wrap(api.closeRequest),
    createRequest: wrap(api.createRequest),
    emailLink: wrap(api.emailLink),
  };
}
