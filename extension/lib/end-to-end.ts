import type { PushInput } from '../../shared/push-schema';
import { encryptFile } from '../../shared/e2e/file-transfer';
import { encodeLinkKey, newPushKey } from '../../shared/e2e/link-key';
import { encryptManifestPayload, encryptTextPayload } from '../../shared/e2e/push-content';

/**
 * End-to-end encryption of a push before it leaves the extension (docs/end-to-end-encryption.md).
 * Loaded on demand (its own chunk): the popup draws before it is parsed. The passphrase, if any,
 * is mixed into the key here and never sent; the key goes only into the link.
 */
export interface Sealed<T> {
  sealed: T;
  linkKey: string;
}

function options(input: PushInput) {
  return input.passphrase ? { passphrase: input.passphrase } : {};
}

/** Without the passphrase (it is in the key), with the end-to-end flag. */
function withoutPassphrase(input: PushInput): PushInput {
  const { passphrase: _, ...rest } = input;
  return { ...rest, end_to_end: true };
}

export async function sealText(input: PushInput): Promise<Sealed<PushInput>> {
  const key = newPushKey();
  const payload = await encryptTextPayload(key, input.payload ?? '', options(input));
  return { sealed: { ...withoutPassphrase(input), payload }, linkKey: await encodeLinkKey(key) };
}

/**
 * A file push as the multipart body of REST v2's create: the file as a file envelope under a
 * name that says nothing, its real name and type in the encrypted manifest (the payload).
 */
export async function sealFile(input: PushInput, file: File, message = ''): Promise<Sealed<FormData>> {
  const key = newPushKey();
  const manifest = { message, files: [{ name: file.name, type: file.type, size: file.size }] };
  const fields = { ...withoutPassphrase(input), kind: 'file', payload: await encryptManifestPayload(key, manifest, options(input)) };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(`push[${name}]`, String(value));
  form.append('push[files][]', new File([await encryptFile(key, file, options(input))], 'file-1.bin', { type: 'application/octet-stream' }));
  return { sealed: form, linkKey: await encodeLinkKey(key) };
}
