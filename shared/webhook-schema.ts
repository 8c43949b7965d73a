import { z } from 'zod';

/** Webhook shapes shared by REST, tRPC and the account page. No Node or DOM APIs. */

export const webhookEventTypes = ['push.created', 'push.viewed', 'push.expired', 'push.passphrase_failed', 'request.answered'] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** Registering an endpoint: events default to all; the secret is generated unless given. */
export const webhookInputSchema = z.object({
  url: z.string({ error: 'url must be a string' }).max(2048, { error: 'url is too long (maximum is 2048 characters)' }),
  events: z.array(webhookEventTypeSchema, { error: `events must be a list of: ${webhookEventTypes.join(', ')}` }).optional(),
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, { error: 'secret must be whsec_ followed by at least 24 bytes in base64' })
    .optional(),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  type: webhookEventTypeSchema,
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  created_at: z.string(),
  /** The most recent delivery to this endpoint, if any. */
  last_delivery: webhookDeliverySchema.nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to a registration: the signing secret, shown this once. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;
