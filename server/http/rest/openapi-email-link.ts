import { z } from 'zod';
import { emailLinkInputSchema } from '../../../shared/email-link-schema.js';

/** The OpenAPI part of "e-mail the link" of an existing push: POST /pushes/{url_token}/email. */
const errorBody = { type: 'object', properties: { error: { type: 'string' } } };
const fieldErrors = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } };
const jsonOf = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });

export function emailLinkPaths() {
  // The token is in the path; the body is the rest of the shared input schema.
  const body = z.toJSONSchema(emailLinkInputSchema.omit({ url_token: true }), { io: 'input', unrepresentable: 'any' });
  return {
    '/pushes/{url_token}/email': {
      post: {
        summary:
          "E-mail the link of one of your pushes to up to 5 addresses (the same mail as a create's notify_emails; account only; offered when the version's limits say email_links)",
        parameters: [{ name: 'url_token', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          200: jsonOf({ type: 'object', required: ['sent'], properties: { sent: { type: 'integer', minimum: 1 } } }, 'The mails were queued'),
          400: jsonOf(errorBody, 'The body is not JSON'),
          401: jsonOf(errorBody, 'Sign in (an account only)'),
          404: jsonOf(errorBody, 'Unknown token, or a push of another account'),
          413: jsonOf(errorBody, 'Body too large'),
          422: jsonOf(fieldErrors, 'Field errors: no address, more than 5, an expired push, no SMTP on this server, an end-to-end push without link_key'),
          429: jsonOf(errorBody, 'Rate limited, or the day\'s e-mail limits reached'),
        },
      },
    },
  };
}
