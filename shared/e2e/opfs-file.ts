/**
 * What the upload spool (upload-spool.ts) and the download spool (download-spool.ts) both do
 * with the origin private file system (OPFS): a directory of their own, a stream written into a
 * file through a synchronous access handle (which exists only in dedicated workers, and writes
 * straight to the file, where the page's `createWritable` goes through the browser process and
 * a swap file), files left behind removed by age, and a one-shot request to a dedicated worker.
 */
export type OpfsDirectory = FileSystemDirectoryHandle & { entries?(): AsyncIterable<[string, FileSystemHandle]> };
interface SyncAccessHandle {
  write(data: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

/** The directory `name` of this origin's OPFS, or null where there is none (Firefox's private windows, an insecure origin, storage refused, an older browser). */
export async function opfsDirectory(name: string): Promise<OpfsDirectory | null> {
  try {
    return (await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true })) as OpfsDirectory;
  } catch {
    return null;
  }
}

/**
 * In a dedicated worker: writes `source` into the file `name` of `dir`; its size. A failure (of
 * the source, the handle, the quota) removes the half-written file and is thrown.
 */
export async function writeThroughSyncHandle(dir: OpfsDirectory, name: string, source: ReadableStream<Uint8Array>): Promise<number> {
  const handle = (await dir.getFileHandle(name, { create: true })) as FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> };
  let access: SyncAccessHandle | undefined;
  try {
    access = await handle.createSyncAccessHandle();
    access.truncate(0);
    let at = 0;
    const reader = source.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      at += access.write(value, { at });
    }
    access.flush();
    return at;
  } catch (e) {
    access?.close();
    access = undefined;
    await dir.removeEntry(name).catch(() => undefined);
    throw e;
  } finally {
    access?.close();
  }
}

/** Removes the files of `dir` at least `ageMs` old (left by a page that went before it could remove them). */
export async function removeOlderThan(dir: OpfsDirectory | null, ageMs: number): Promise<void> {
  if (!dir?.entries) return;
  try {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind !== 'file') continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      if (Date.now() - file.lastModified >= ageMs) await dir.removeEntry(name).catch(() => undefined);
    }
  } catch {
    // Best effort: the next visit tries again.
  }
}

/**
 * Starts the dedicated worker `script`, sends it `request` and resolves with its one answer, or
 * with `failed` when it could not start or load (blocked, a network error); the worker is then
 * ended. Null when workers cannot be made here.
 */
export async function askWorker<Answer>(script: string, request: unknown, failed: Answer): Promise<Answer | null> {
  let worker: Worker;
  try {
    worker = new Worker(script);
  } catch {
    return null;
  }
  try {
    return await new Promise<Answer>((resolve) => {
      worker.onmessage = (e: MessageEvent<Answer>) => resolve(e.data);
      worker.onerror = () => resolve(failed);
      worker.postMessage(request);
    });
  } finally {
    worker.terminate();
  }
}
