import { z } from 'zod';
import { lenientIntegerSchema } from './push-schema.js';

/** Secret requests (Secret Push's own; Password Pusher OSS has none). No Node or DOM APIs. */

const text = (what: string) => z.string({ error: `${what} must be a string` });

/** Making a request: what the person answering will see, how long the link works, and the answer's limits. */
export const requestInputSchema = z.object({
  title: text('title').optional(),
  message: text('message').optional(),
  /** Days the request link stays open (within the push day limits). */
  expire_after_days: lenientIntegerSchema.optional(),
  /** The answer push's limits (defaults: the server's push defaults). */
  answer_expire_after_days: lenientIntegerSchema.optional(),
  answer_expire_after_views: lenientIntegerSchema.optional(),
  /** E-mail the requester when the request is answered (absent: the account's default; needs SMTP on the server). */
  email_on_answer: z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])]).optional(),
});
export type RequestInput = z.input<typeof requestInputSchema>;

/** A request as its owner sees it. */
export const ownerRequestSchema = z.object({
  url_token: z.string(),
  html_url: z.string(),
  title: z.string().nullable(),
  message: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  state: z.enum(['open', 'answered', 'expired', 'closed']),
  answered_at: z.string().nullable(),
  answer_expire_after_days: z.number().int(),
  answer_expire_after_views: z.number().int(),
  /** The push the answer became (its `push_id` in the owner's push lists). */
  push_id: z.string().nullable(),
  /** Its owner is e-mailed when it is answered (asked for when made, or the account's default then). */
  email_on_answer: z.boolean(),
  /** The answer's secret link, for the owner only. */
  answer_html_url: z.string().nullable(),
});
export type OwnerRequest = z.infer<typeof ownerRequestSchema>;

/** What whoever opens the link sees: only what the requester chose to show. */
export const publicRequestSchema = z.object({
  title: z.string().nullable(),
  message: z.string().nullable(),
  expires_at: z.string(),
});
export type PublicRequest = z.infer<typeof publicRequestSchema>;

export const requestAnswerSchema = z.object({
  payload: text('payload').optional(),
});
export type RequestAnswerInput = z.input<typeof requestAnswerSchema>;
