import { auditKinds } from '../../../shared/push-schema.js';

/**
 * The OpenAPI part of the administration API (/api/v2/admin, admin-routes.ts): every route an
 * administrator's token may call; openapi.ts merges it into the document. Shapes are described
 * inline (they are the admin service's views, not shared with any client).
 */
const err = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const common = { 401: err('Authentication required, or token invalid'), 403: err('Not an administrator'), 429: err('Rate limited') };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const pageParam = { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } };
const query = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
const done = { 204: { description: 'Done (and written to the admin log)' }, 404: err('No such account'), ...common };
const jsonOf = (description: string, schema: object) => ({ description, content: { 'application/json': { schema } } });
const user = {
  type: 'object',
  properties: { id: { type: 'string' }, email: { type: 'string' }, createdAt: { type: 'string' }, admin: { type: 'boolean' }, lockedAt: { type: ['string', 'null'] }, apiTokens: { type: 'integer' } },
};
const logEntry = {
  type: 'object',
  properties: { id: { type: 'string' }, at: { type: 'string' }, actorId: { type: ['string', 'null'] }, actorEmail: { type: 'string' }, action: { type: 'string' }, target: { type: 'string' }, ip: { type: 'string' }, userAgent: { type: 'string' } },
};

export const adminPaths = {
  '/admin/audit': {
    get: {
      summary: 'Instance-wide audit, streamed (CSV or NDJSON) for a SIEM; the export is written to the admin log',
      parameters: [
        query('from', 'ISO date or date-time (UTC), inclusive'),
        query('to', 'ISO date or date-time (UTC), exclusive'),
        query('account', "The push owner's email"),
        query('push', "A push's storage id (GET /admin/pushes)"),
        query('event', 'Audit event', { type: 'string', enum: [...auditKinds] }),
        query('ip', 'Client address'),
        query('format', 'Default csv', { type: 'string', enum: ['csv', 'ndjson'] }),
      ],
      responses: {
        200: {
          description: "Columns/fields at, event, push, account, ip, user_agent (a CSV cell starting with = + - @ is prefixed with ')",
          content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
        },
        422: err('A filter is invalid'),
        ...common,
      },
    },
  },
  '/admin/log': { get: { summary: 'The admin log, newest first, 50 a page (append-only)', parameters: [pageParam], responses: { 200: jsonOf('Entries', { type: 'array', items: logEntry }), ...common } } },
  '/admin/users': { get: { summary: 'Accounts by email, 50 a page', parameters: [query('q', 'Part of the email'), pageParam], responses: { 200: jsonOf('Accounts', { type: 'array', items: user }), ...common } } },
  '/admin/users/{id}/lock': { post: { summary: 'Lock: sessions end; sign-in, sessions and API tokens refused on every instance', parameters: [idParam], responses: done } },
  '/admin/users/{id}/unlock': { post: { summary: 'Unlock', parameters: [idParam], responses: done } },
  '/admin/users/{id}/reset-second-factor': { post: { summary: "Remove the account's authenticator app, recovery codes and passkeys, and end its sessions (its API tokens stay)", parameters: [idParam], responses: { 200: jsonOf('What was removed', { type: 'object', properties: { totp: { type: 'boolean' }, passkeys: { type: 'integer' }, sessions: { type: 'integer' } } }), 404: err('No such account'), ...common } } },
  '/admin/users/{id}/end-sessions': { post: { summary: 'End every browser session', parameters: [idParam], responses: { 200: jsonOf('How many', { type: 'object', properties: { ended: { type: 'integer' } } }), 404: err('No such account'), ...common } } },
  '/admin/users/{id}/revoke-tokens': { post: { summary: 'Revoke every API token', parameters: [idParam], responses: { 200: jsonOf('How many', { type: 'object', properties: { revoked: { type: 'integer' } } }), 404: err('No such account'), ...common } } },
  '/admin/users/{id}': {
    delete: {
      summary: 'Delete the account; with_pushes=true expires its pushes first',
      parameters: [idParam, query('with_pushes', 'Default false', { type: 'boolean' })],
      responses: { 200: jsonOf('Pushes expired', { type: 'object', properties: { expired_pushes: { type: 'integer' } } }), 400: err('with_pushes is not true or false, or your own account'), 404: err('No such account'), ...common },
    },
  },
  '/admin/pushes': {
    get: {
      summary: 'Every push as metadata only (never payload, name, note or file names), newest first, 50 a page',
      parameters: [pageParam],
      responses: { 200: jsonOf('Pushes', { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, kind: { type: 'string' }, owner: { type: ['string', 'null'] }, createdAt: { type: 'string' }, expiresAt: { type: 'string' }, expiredAt: { type: ['string', 'null'] }, views: { type: 'integer' }, maxViews: { type: 'integer' }, files: { type: 'integer' }, size: { type: 'integer' }, endToEnd: { type: 'boolean' } } } }), ...common },
    },
  },
  '/admin/pushes/{id}/expire': { post: { summary: 'Expire a push by its storage id', parameters: [idParam], responses: { 204: { description: 'Expired' }, 404: err('No such push'), ...common } } },
  '/admin/storage': { get: { summary: 'Storage used against MAX_STORAGE_MB', responses: { 200: jsonOf('Bytes', { type: 'object', properties: { used_bytes: { type: 'integer' }, max_bytes: { type: ['integer', 'null'] } } }), ...common } } },
  '/admin/config': { get: { summary: 'The effective configuration, secrets masked, with each value’s source', responses: { 200: jsonOf('Settings', { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' }, source: { type: 'string', enum: ['environment', 'default'] } } } }), ...common } } },
  '/admin/invites': {
    get: {
      summary: 'Invites, newest first, 50 a page, with their state (never their links; id is the digest of the link’s secret)',
      parameters: [pageParam],
      responses: { 200: jsonOf('Invites', { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, email: { type: ['string', 'null'] }, createdBy: { type: 'string' }, createdAt: { type: 'string' }, expiresAt: { type: 'string' }, usedAt: { type: ['string', 'null'] }, revokedAt: { type: ['string', 'null'] }, state: { type: 'string', enum: ['open', 'used', 'expired', 'revoked'] } } } }), 400: err('Invalid page parameter'), ...common },
    },
    post: {
      summary: 'Make a single-use sign-up invite link (shown only in this answer)',
      requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { email: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 90 } } } } } },
      responses: { 201: jsonOf('The link', { type: 'object', properties: { link: { type: 'string' }, email: { type: ['string', 'null'] }, expires_at: { type: 'string' } } }), 400: err('Not a JSON object'), 422: err('Invalid email or days'), ...common },
    },
  },
  '/admin/invites/{id}/revoke': {
    post: { summary: 'Revoke an open invite: its link signs nobody up from now, on every instance', parameters: [idParam], responses: { 204: { description: 'Revoked (and written to the admin log)' }, 409: err('Unknown, used, expired or revoked already'), ...common } },
  },
};
