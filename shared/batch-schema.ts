import { z } from 'zod';

/**
 * One link per recipient (issue 35 item 2): a batch create. Each row of `recipients` (a JSON list)
 * or `recipients_csv` (CSV text with a header row: name, email, secret) becomes its own push with
 * the options of `push`. A Secret Push addition beside Password Pusher's API.
 */
export const MAX_BATCH_ROWS = 1000;

export const batchRowSchema = z.object({
  /** The sender's own label for the row (shown on their dashboard, sealed at rest like a push's name). */
  name: z.string({ error: 'name must be a string' }).optional(),
  /** The recipient's address: their label when no name is given, and where their link goes with email_links. */
  email: z.string({ error: 'email must be a string' }).optional(),
  /** The row's secret; absent with `generate`. */
  payload: z.string({ error: 'payload must be a string' }).optional(),
});
export type BatchRow = z.infer<typeof batchRowSchema>;

export const batchInputSchema = z.object({
  /** The options every row's push gets (a push's create fields, without payload). */
  push: z.record(z.string(), z.unknown()).optional(),
  recipients: z.array(z.unknown(), { error: 'recipients must be a list of {name, email, payload}' }).optional(),
  recipients_csv: z.string({ error: 'recipients_csv must be CSV text' }).optional(),
  /** The server generates each row's secret (a row's own payload is then refused). */
  generate: z.union([z.boolean(), z.string()]).optional(),
  /** E-mail each row that has an address its own link (needs e-mail set up; per-recipient limits apply). */
  email_links: z.union([z.boolean(), z.string()]).optional(),
});
export type BatchInput = z.input<typeof batchInputSchema>;

export const batchRowResultSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  /** created: the push exists; failed: this row was refused (error, http_status); not_attempted: a row after a failure that stopped the batch. */
  status: z.enum(['created', 'failed', 'not_attempted']),
  url_token: z.string().optional(),
  html_url: z.string().optional(),
  /** With email_links: the link was queued to this row's address. */
  emailed: z.boolean().optional(),
  error: z.string().optional(),
  http_status: z.number().int().optional(),
});
export type BatchRowResult = z.infer<typeof batchRowResultSchema>;

export const batchResultSchema = z.object({
  batch_id: z.string(),
  created: z.number().int(),
  failed: z.number().int(),
  not_attempted: z.number().int(),
  rows: z.array(batchRowResultSchema),
});
export type BatchResult = z.infer<typeof batchResultSchema>;
