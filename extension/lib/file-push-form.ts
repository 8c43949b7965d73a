import type { PushInput } from '../../shared/push-schema';

/** REST v2's multipart create: the push's fields as `push[…]`, then the file under `name`. */
export function filePushForm(fields: Record<string, unknown>, file: Blob, name: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(`push[${key}]`, String(value));
  form.append('push[files][]', file, name);
  return form;
}

/** An ordinary (not end-to-end) file push: the server reads and encrypts the file. */
export function plainFilePushForm(input: PushInput, file: File): FormData {
  return filePushForm({ ...input, kind: 'file' }, file, file.name);
}
