/**
 * The OpenAPI part of the extension's connect-by-signing-in (accounts/extension-connect/): the
 * one JSON endpoint, POST /extension/token, which lives beside the connect page at the site's
 * root rather than under /api/v2 (so it declares its own server). The connect page itself is
 * HTML for a browser window and is described in the README.
 */
const oauthError = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string', enum: ['invalid_request', 'invalid_grant', 'unsupported_grant_type'] }, error_description: { type: 'string' } },
      },
    },
  },
});

export function extensionConnectPaths(baseUrl: string) {
  return {
    '/extension/token': {
      servers: [{ url: baseUrl }],
      post: {
        summary: 'Exchange a connect code for an API token made for the extension (authorization code with PKCE S256)',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['grant_type', 'code', 'code_verifier', 'redirect_uri'],
                properties: {
                  grant_type: { type: 'string', enum: ['authorization_code'] },
                  code: { type: 'string', description: 'From the redirect after "Allow" on /extension/connect; single-use, 60 s' },
                  code_verifier: { type: 'string', description: 'The PKCE verifier whose S256 challenge started the flow' },
                  redirect_uri: { type: 'string', description: 'The same redirect URI the flow started with' },
                },
              },
            },
          },
        },
        responses: {
          200: {
            description: 'The token (Cache-Control: no-store); listed and revocable on /users/token',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['token', 'token_type', 'id', 'label', 'created_at'],
                  properties: { token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, id: { type: 'string' }, label: { type: 'string' }, created_at: { type: 'string' } },
                },
              },
            },
          },
          400: oauthError('A wrong, used or expired code, a verifier or redirect URI that does not match, or a malformed request'),
          413: { description: 'A body too large' },
          429: { description: 'Rate limited' },
        },
      },
    },
  };
}
