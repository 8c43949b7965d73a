import { z } from 'zod';
import {
  auditLogSchema,
  errorBodySchema,
  ownerPushRecordSchema,
  previewSchema,
  pushInputSchema,
  pushRecordBaseSchema,
  retrievedPushSchema,
  validationErrorBodySchema,
  versionDocumentSchema,
} from '../../../shared/push-schema.js';
import { tooEarlyBodySchema } from '../../../shared/release-schema.js';
import { SECRET_PUSH_VERSION } from '../../version.js';
import { accountFeatureInputs, accountFeaturePaths, accountFeatureSchemas } from './openapi-account-features.js';
import { adminPaths } from './openapi-admin.js';
import { extensionConnectPaths } from './openapi-extension-connect.js';
import { batchPaths } from './openapi-batch.js';
import { emailLinkPaths } from './openapi-email-link.js';

/**
 * The OpenAPI 3.1 document of REST v2, built from the shared zod schemas (z.toJSONSchema), so
 * it cannot drift from what the server validates and returns.
 */
const schemas = {
  PushInput: pushInputSchema,
  OwnerPushRecord: ownerPushRecordSchema,
  RetrievedPush: retrievedPushSchema,
  PushRecord: pushRecordBaseSchema,
  Preview: previewSchema,
  AuditLog: auditLogSchema,
  Version: versionDocumentSchema,
  Error: errorBodySchema,
  ValidationErrors: validationErrorBodySchema,
  TooEarly: tooEarlyBodySchema,
  ...accountFeatureSchemas,
};

const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof schemas, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const err = (description: string) => json('Error', description);
const tokenParam = { name: 'url_token', in: 'path', required: true, schema: { type: 'string' } };
const pageParam = { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 1 } };
/** Scheduled release's answer before the push opens, with its Retry-After. */
const tooEarly = (description: string) => ({
  ...json('TooEarly', description),
  headers: { 'Retry-After': { description: 'Seconds until the push opens', schema: { type: 'integer', minimum: 1 } } },
});
const common = { 401: err('Authentication required, or token invalid'), 429: err('Rate limited') };

export function buildOpenApiDocument(baseUrl: string) {
  const components = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, z.toJSONSchema(schema, { io: name === 'PushInput' || accountFeatureInputs.has(name) ? 'input' : 'output', unrepresentable: 'any' })]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Secret Push API v2 (Password Pusher compatible)',
      version: SECRET_PUSH_VERSION,
      description: 'Store a secret under a URL token and release it subject to view and day limits.',
    },
    servers: [{ url: `${baseUrl}/api/v2` }],
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{}, { bearer: [] }],
    paths: {
      '/version': { get: { summary: 'Version and features of this instance', security: [{}], responses: { 200: json('Version', 'The version document') } } },
      '/pushes': {
        post: {
          summary: 'Create a push',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', required: ['push'], properties: { push: ref('PushInput') } } },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    'push[payload]': { type: 'string' },
                    'push[files][]': { type: 'array', items: { type: 'string', format: 'binary' } },
                  },
                },
              },
            },
          },
          responses: { 201: json('OwnerPushRecord', 'Created'), 400: err('Missing push'), 413: err('Body too large'), 422: json('ValidationErrors', 'Field errors'), ...common },
        },
      },
      '/pushes/{url_token}': {
        get: {
          summary: 'Retrieve a push (counts a view)',
          parameters: [tokenParam, { name: 'passphrase', in: 'query', required: false, schema: { type: 'string' } }],
          responses: {
            200: json('RetrievedPush', 'The push, with its payload unless expired'),
            404: err('Unknown token'),
            425: tooEarly(
              'A scheduled release (not_before) not reached yet, or a linked secret (follows) whose first push this client has not opened (body {error, follows: true}; send the Secret-Push-Opened header its retrieval answered; Retry-After only with follows_until): no view counted',
            ),
            ...common,
          },
        },
        delete: {
          summary: 'Expire a push now',
          parameters: [tokenParam],
          responses: {
            200: json('PushRecord', 'The expired push'),
            403: err('Not yours'),
            404: err('Unknown token'),
            425: tooEarly('A viewer (not the owner) deleting a push before its scheduled release; its passphrase is not judged'),
            ...common,
          },
        },
      },
      '/pushes/{url_token}/preview': {
        get: { summary: 'The secret URL, without counting a view', parameters: [tokenParam], responses: { 200: json('Preview', 'The URL'), 404: err('Unknown token'), ...common } },
      },
      '/pushes/{url_token}/audit': {
        get: {
          summary: 'Audit log (owner only)',
          parameters: [tokenParam, pageParam],
          responses: { 200: json('AuditLog', 'Entries, oldest first, 50 a page'), 400: err('Invalid page'), 403: err('Not yours'), 404: err('Unknown token'), ...common },
        },
      },
      '/pushes/active': {
        get: { summary: 'Your active pushes', parameters: [pageParam], responses: { 200: { description: 'Newest first, 50 a page', content: { 'application/json': { schema: { type: 'array', items: ref('OwnerPushRecord') } } } }, 400: err('Invalid page'), ...common } },
      },
      ...accountFeaturePaths,
      ...adminPaths,
      ...extensionConnectPaths(baseUrl),
      ...batchPaths(),
      ...emailLinkPaths(),
      '/pushes/expired': {
        get: { summary: 'Your expired pushes', parameters: [pageParam], responses: { 200: { description: 'Newest first, 50 a page', content: { 'application/json': { schema: { type: 'array', items: ref('OwnerPushRecord') } } } }, 400: err('Invalid page'), ...common } },
      },
    },
  };
}
