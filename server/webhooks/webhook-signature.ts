import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (standardwebhooks.com): the secret is `whsec_` + base64 of the key,
 * and `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
const PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function signatureHeaders(secret: string, id: string, timestamp: Date, body: string): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${signature}` };
}
