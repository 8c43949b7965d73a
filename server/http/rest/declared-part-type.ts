import type { BusboyInstance } from '@fastify/busboy';

type HeaderListener = (header: Record<string, string[] | undefined>) => void;
interface PartParser {
  prependListener(event: 'part', listener: (part: { prependListener(event: 'header', listener: HeaderListener): unknown }) => void): unknown;
}

/**
 * Whether the multipart part busboy is reporting declared its own Content-Type.
 *
 * busboy reports a file part sent without one as `text/plain` (RFC 7578's default for form
 * fields) and does not say it defaulted. Password Pusher lists such files as
 * application/octet-stream, and pwpush-cli sends every file that way, so the difference matters.
 * busboy exposes no part headers, so this listens to its part parser (an internal of the exactly
 * pinned @fastify/busboy) ahead of busboy's own listener, which emits 'file' synchronously from
 * the same header event. Without that internal every type counts as declared (busboy's answer
 * stands), and the compatibility test `test/server/compat/legacy-create-rules.test.ts` fails.
 */
export function declaredPartType(bb: BusboyInstance): () => boolean {
  let declared = true;
  const parser = (bb as unknown as { _parser?: { parser?: Partial<PartParser> } })._parser?.parser;
  if (typeof parser?.prependListener === 'function') {
    parser.prependListener('part', (part) => {
      part.prependListener('header', (header) => {
        declared = (header['content-type']?.[0] ?? '').trim() !== '';
      });
    });
  }
  return () => declared;
}
