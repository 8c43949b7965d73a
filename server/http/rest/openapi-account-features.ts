import { createdWebhookSchema, webhookDeliverySchema, webhookInputSchema, webhookSchema } from '../../../shared/webhook-schema.js';
import { ownerRequestSchema, publicRequestSchema, requestAnswerSchema, requestInputSchema } from '../../../shared/request-schema.js';
import { sliceReceiptSchema, sliceUploadStartSchema, sliceUploadStateSchema } from '../../../shared/sliced-upload-schema.js';

/**
 * The OpenAPI part of Secret Push's own features beyond Password Pusher's API (webhooks, secret
 * requests, sliced uploads), from the same shared zod schemas the services validate with;
 * openapi.ts merges it into the document.
 */
export const accountFeatureSchemas = {
  WebhookInput: webhookInputSchema,
  Webhook: webhookSchema,
  CreatedWebhook: createdWebhookSchema,
  WebhookDelivery: webhookDeliverySchema,
  RequestInput: requestInputSchema,
  OwnerRequest: ownerRequestSchema,
  PublicRequest: publicRequestSchema,
  RequestAnswer: requestAnswerSchema,
  SliceUploadStart: sliceUploadStartSchema,
  SliceUploadState: sliceUploadStateSchema,
  SliceReceipt: sliceReceiptSchema,
};

/** Schemas read as request bodies (their input shape goes in the document). */
export const accountFeatureInputs = new Set(['WebhookInput', 'RequestInput', 'RequestAnswer', 'SliceUploadStart']);

type Name = keyof typeof accountFeatureSchemas | 'Error' | 'ValidationErrors';
const ref = (name: Name) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: Name, description: string) => ({ description, content: { 'application/json': { schema: ref(name) } } });
const list = (name: Name, description: string) => ({ description, content: { 'application/json': { schema: { type: 'array', items: ref(name) } } } });
const body = (name: Name) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const err = (description: string) => json('Error', description);
const tokenParam = { name: 'url_token', in: 'path', required: true, schema: { type: 'string' } };
const pageParam = { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 1 } };
const uploadParam = { name: 'upload', in: 'path', required: true, schema: { type: 'string' } };
const common = { 401: err('Authentication required, or token invalid'), 429: err('Rate limited') };

export const accountFeaturePaths = {
  '/webhooks': {
    get: { summary: 'Your webhook endpoints, each with its last delivery', responses: { 200: list('Webhook', 'Oldest first'), ...common } },
    post: {
      summary: 'Register a webhook endpoint (Standard Webhooks signing; the secret is returned only here)',
      requestBody: body('WebhookInput'),
      responses: { 201: json('CreatedWebhook', 'Registered'), 400: err('Not JSON'), 422: json('ValidationErrors', 'Field errors (a private target is refused here)'), ...common },
    },
  },
  '/webhooks/{id}': {
    delete: {
      summary: 'Remove a webhook and its pending deliveries',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 204: { description: 'Removed' }, 404: err('No such webhook'), ...common },
    },
  },
  '/webhooks/deliveries': { get: { summary: 'Your 50 most recent webhook deliveries', responses: { 200: list('WebhookDelivery', 'Newest first'), ...common } } },
  '/secret-requests': {
    get: { summary: 'Your secret requests', parameters: [pageParam], responses: { 200: list('OwnerRequest', 'Newest first, 50 a page'), 400: err('Invalid page'), ...common } },
    post: {
      summary: 'Make a secret request link',
      requestBody: body('RequestInput'),
      responses: { 201: json('OwnerRequest', 'Made'), 400: err('Not JSON'), 422: json('ValidationErrors', 'Field errors'), ...common },
    },
  },
  '/secret-requests/{url_token}': {
    get: { summary: 'An open request, as whoever holds its link sees it', security: [{}], parameters: [tokenParam], responses: { 200: json('PublicRequest', 'Open'), 404: err('Unknown, answered, expired or closed') } },
    delete: { summary: 'Close an open request (owner only)', parameters: [tokenParam], responses: { 200: json('OwnerRequest', 'Closed'), 403: err('Not yours'), 404: err('Unknown'), ...common } },
  },
  '/secret-requests/{url_token}/answer': {
    post: {
      summary: 'Answer a request once: the text (or, as multipart with `payload` and `files` parts, the files) becomes a push owned by the requester',
      security: [{}],
      parameters: [tokenParam],
      requestBody: body('RequestAnswer'),
      responses: { 201: { description: 'Answered', content: { 'application/json': { schema: { type: 'object', properties: { answered: { const: true } } } } } }, 404: err('Unknown, answered, expired or closed'), 422: json('ValidationErrors', 'Field errors') },
    },
  },
  '/uploads': {
    post: {
      summary: 'Start a sliced upload of an end-to-end file push: its create fields and each envelope size, checked as a create',
      requestBody: body('SliceUploadStart'),
      responses: { 201: json('SliceUploadState', 'Started'), 400: err('Not the expected JSON'), 413: err('A file over MAX_FILE_BYTES'), 422: json('ValidationErrors', 'Field errors'), ...common },
    },
  },
  '/uploads/{upload}': {
    get: { summary: 'Where a sliced upload stands', parameters: [uploadParam], responses: { 200: json('SliceUploadState', 'Bytes received per file'), 403: err('Not yours'), 404: err('Unknown, finished, given up or expired'), ...common } },
    delete: { summary: 'Give a sliced upload up (its slices are removed, the daily quota its start reserved given back)', parameters: [uploadParam], responses: { 204: { description: 'Given up' }, 403: err('Not yours'), 404: err('Unknown'), ...common } },
  },
  '/uploads/{upload}/files/{index}': {
    put: {
      summary: 'One slice of a file envelope, in order: slice_bytes long (the last: the rest); a slice sent again is answered as before',
      parameters: [uploadParam, { name: 'index', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'offset', in: 'query', required: true, schema: { type: 'integer' } }],
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      responses: { 200: json('SliceReceipt', 'Stored (now or before)'), 400: err('A wrong offset or a short slice'), 404: err('Unknown upload or file'), 409: err('Out of order (says where the file stands), or another step of this upload is running on another instance (Retry-After)'), 413: err('A slice too long'), ...common },
    },
  },
  '/uploads/{upload}/finish': {
    post: {
      summary: 'Join the slices and create the push (as POST /pushes answers); asked again within 15 minutes, answers with that push as it stands',
      parameters: [uploadParam],
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/OwnerPushRecord' } } } }, 409: err('A file is not complete, or the upload is being finished on another instance (Retry-After)'), 422: json('ValidationErrors', 'Field errors'), ...common },
    },
  },
};
