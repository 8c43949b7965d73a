import { Transform, type TransformCallback } from 'node:stream';
import { decodeBase64url } from '../../shared/e2e/base64url.js';
import { envelopeLengthProblem, EnvelopeFormatError, HEADER_BYTES, parseHeader, TAG_BYTES, type EnvelopeContent } from '../../shared/e2e/envelope-format.js';

/**
 * What the server checks of an end-to-end push (docs/end-to-end-encryption.md): only the
 * envelope's framing, which needs no key. Each function answers with the problem in words, or
 * null when the envelope can be well formed.
 */

/** The payload of an end-to-end push: base64url of a `text` (text push) or `manifest` (file push) envelope. */
export function endToEndPayloadProblem(payload: string, expected: EnvelopeContent): string | null {
  const envelope = decodeBase64url(payload);
  if (!envelope) return 'must be an end-to-end envelope in base64url (no padding) for an end_to_end push';
  const problem = envelopeProblem(envelope.subarray(0, HEADER_BYTES), envelope.length, expected);
  // The one length a text of no characters gives (a header and one empty record's tag): as
  // blank as an empty payload, and refused the same way (the length is no secret).
  if (!problem && expected === 'text' && envelope.length === HEADER_BYTES + TAG_BYTES) return "can't be blank";
  return problem;
}

/** An uploaded file of an end-to-end push, from its first bytes and its size. */
export function endToEndFileProblem(file: UploadedFileFacts): string | null {
  return envelopeProblem(file.head, file.size, 'file');
}

function envelopeProblem(head: Uint8Array, size: number, expected: EnvelopeContent): string | null {
  try {
    const header = parseHeader(head);
    if (header.content !== expected) return `must be a ${expected} envelope (this one holds ${header.content})`;
  } catch (e) {
    if (e instanceof EnvelopeFormatError) return `is not an end-to-end envelope: ${e.message}`;
    throw e;
  }
  const problem = envelopeLengthProblem(size);
  return problem ? `is not a well-formed end-to-end envelope: ${problem}` : null;
}

/** What the push rules learn of an uploaded file without reading it back: its first bytes and size. */
export interface UploadedFileFacts {
  head: Uint8Array;
  size: number;
}

/** Passes a stream through unchanged, keeping its first HEADER_BYTES for the framing check. */
export class EnvelopeHeadTap extends Transform {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    if (this.keptBytes < HEADER_BYTES) {
      const part = chunk.subarray(0, HEADER_BYTES - this.keptBytes);
      this.kept.push(Buffer.from(part));
      this.keptBytes += part.length;
    }
    done(null, chunk);
  }

  get head(): Uint8Array {
    return Buffer.concat(this.kept);
  }
}
