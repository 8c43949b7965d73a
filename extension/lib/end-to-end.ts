import type { PushInput } from '../../shared/push-schema';
import type { EncryptOptions } from '../../shared/e2e/envelope-crypto';
import { encryptFile } from '../../shared/e2e/file-transfer';
import { encodeLinkKey, newPushKey } from '../../shared/e2e/link-key';
import { passphraseCheck } from '../../shared/e2e/passphrase-check';
import { encryptManifestPayload, encryptTextPayload } from '../../shared/e2e/push-content';
import { filePushForm } from './file-push-form';

/**
 * End-to-end encryption of a push before it leaves the extension (docs/end-to-end-encryption.md).
 * Loaded on demand (its own chunk): the popup draws before it is parsed. The passphrase, if any,
 * is mixed into the key here and never sent (only its check); the key goes only into the link.
 */
export interface Sealed<T> {
  sealed: T;
  linkKey: string;
}

/** Makes a file's envelope: a Blob by default; the file host writes it to disk (file-host-push.ts). */
export type EnvelopeMaker = (pushKey: Uint8Array, file: File, options: EncryptOptions) => Promise<Blob>;

function options(input: PushInput) {
  return input.passphrase ? { passphrase: input.passphrase } : {};
}

/**
 * With the end-to-end flag and, in place of the passphrase (it is in the key), its check: the
 * server then asks the recipient for the passphrase before a view is spent, and counts wrong ones.
 */
async function withCheckNotPassphrase(input: PushInput, key: Uint8Array): Promise<PushInput> {
  const { passphrase, ...rest } = input;
  return passphrase ? { ...rest, end_to_end: true, passphrase: await passphraseCheck(key, passphrase) } : { ...rest, end_to_end: true };
}

export async function sealText(input: PushInput): Promise<Sealed<PushInput>> {
  const key = newPushKey();
  const payload = await encryptTextPayload(key, input.payload ?? '', options(input));
  return { sealed: { ...(await withCheckNotPassphrase(input, key)), payload }, linkKey: await encodeLinkKey(key) };
}

/**
 * A file push's create fields and its file's envelope: its real name and type only in the
 * encrypted manifest (the payload).
 */
export async function sealFileParts(input: PushInput, file: File, message = '', envelopeOf: EnvelopeMaker = encryptFile): Promise<Sealed<{ fields: PushInput & { kind: 'file' }; envelope: Blob }>> {
  const key = newPushKey();
  const manifest = { message, files: [{ name: file.name, type: file.type, size: file.size }] };
  const fields = { ...(await withCheckNotPassphrase(input, key)), kind: 'file' as const, payload: await encryptManifestPayload(key, manifest, options(input)) };
  const envelope = await envelopeOf(key, file, options(input));
  return { sealed: { fields, envelope }, linkKey: await encodeLinkKey(key) };
}

/** A file push as the multipart body of REST v2's create: the envelope under a name that says nothing. */
export async function sealFile(input: PushInput, file: File, message = '', envelopeOf: EnvelopeMaker = encryptFile): Promise<Sealed<FormData>> {
  const { sealed, linkKey } = await sealFileParts(input, file, message, envelopeOf);
  return { sealed: envelopeForm(sealed.fields, sealed.envelope), linkKey };
}

export function envelopeForm(fields: Record<string, unknown>, envelope: Blob): FormData {
  return filePushForm(fields, new File([envelope], 'file-1.bin', { type: 'application/octet-stream' }), 'file-1.bin');
}
