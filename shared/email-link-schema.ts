import { z } from 'zod';
import { tokenSchema } from './push-schema.js';

/**
 * E-mail the link of a push that exists already (the extension's result view, issue 31 item 5):
 * the owner names the push and up to 5 addresses; the server sends the same mail as a create's
 * `notify_emails`. No Node or DOM APIs.
 */
export const emailLinkInputSchema = tokenSchema.extend({
  notify_emails: z.union([z.array(z.string()), z.string()]),
  notify_note: z.string().optional(),
  /**
   * End-to-end pushes only: the key of the link (the part after `#`), which the server never has
   * otherwise. Sent only by the sender's browser, for this mail; the recipients' mail servers then
   * see the whole link.
   */
  link_key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,200}$/, 'must be the key of the link (base64url)')
    .optional(),
});
export type EmailLinkInput = z.input<typeof emailLinkInputSchema>;
