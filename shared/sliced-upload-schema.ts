import { z } from 'zod';

/**
 * The sliced upload of an end-to-end file push (docs/end-to-end-encryption.md, "Sliced
 * uploads"): its envelope sent as several bounded requests instead of one large body, because
 * Firefox holds a whole request body in memory. Shared by the server (which parses with these
 * and documents them in its OpenAPI document), the extension's file host and the create page.
 */

/** `POST /api/v2/uploads`: the push as REST v2's create takes it, and each file's envelope size. */
export const sliceUploadStartSchema = z.object({
  push: z.record(z.string(), z.unknown()),
  files: z.array(z.object({ size: z.number().int().nonnegative() })).min(1),
});
export type SliceUploadStart = z.infer<typeof sliceUploadStartSchema>;

/** The answer to a start, and to `GET /api/v2/uploads/<upload>`: where the upload stands. */
export const sliceUploadStateSchema = z.object({
  /** The upload's id, a capability: with it (and the starter's account, if any) slices are added. */
  upload: z.string(),
  /** Every slice but a file's last is exactly this long; a slice starts at a multiple of it. */
  slice_bytes: z.number().int(),
  /** Each file's declared size and the bytes received so far (in order, from its start). */
  files: z.array(z.object({ size: z.number().int(), received: z.number().int() })),
  /** Unfinished by then, the upload is refused and its slices purged. */
  expires_at: z.string(),
});
export type SliceUploadState = z.infer<typeof sliceUploadStateSchema>;

/** The answer to a slice (`PUT /api/v2/uploads/<upload>/files/<index>?offset=<n>`), stored now or before. */
export const sliceReceiptSchema = z.object({
  file: z.number().int(),
  offset: z.number().int(),
  /** Where the file's next slice starts; its size once the last slice is in. */
  next_offset: z.number().int(),
});
export type SliceReceipt = z.infer<typeof sliceReceiptSchema>;
