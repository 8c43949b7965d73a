import type { PushInput } from '../../shared/push-schema';
import type { RelayAnswer } from './relay';

/**
 * What the popup and the file host (entrypoints/file-host) say to each other over a
 * BroadcastChannel. A runtime message cannot carry a File in Chromium (its messages are JSON);
 * a BroadcastChannel between two pages of the extension's origin clones it, and a clone of a
 * File refers to the same bytes (on disk, for a file the user chose) rather than copying them.
 * The host then keeps the file readable when the popup has closed.
 */
export type FileChannelName = 'secret-push-files';
// A type, not a constant: a constant both pages import would be a chunk of its own, which the
// popup would load before its first file push (and Vite's preload helper with it, 1.8 KB).
// Each side writes the name `satisfies FileChannelName`, so a different name does not compile.

/** The spool worker's address in the extension (entrypoints/spool-worker.ts). */
export const SPOOL_WORKER_SCRIPT = '/spool-worker.js';

export interface Connection {
  serverUrl: string;
  apiToken?: string;
}

/**
 * While it works on a request the host says so every HeartbeatMs (`FileHostAlive`), until it
 * answers; a popup that has heard nothing for several of those gives up (file-handoff.ts): the
 * host crashed or was closed in the middle of the upload, and the popup must not stay busy.
 * Types, not constants, for the reason above; each side writes its number `satisfies` them.
 */
export type HeartbeatMs = 2_000;
/** Silence after which the popup gives up: several heartbeats missed, not one late. */
export type HostSilenceMs = 15_000;

/** The host is still at work on request `id`. */
export interface FileHostAlive {
  id: string;
  alive: true;
}

/** The popup's request: push this file (end to end when `endToEnd`). */
export interface FilePushRequest {
  id: string;
  connection: Connection;
  input: PushInput;
  file: File;
  endToEnd: boolean;
}

/**
 * Where the host kept the envelope while it was uploaded: the spool on disk, or a Blob (held in
 * memory by the browser) where the spool is unavailable; nothing for an ordinary file push.
 */
export type EnvelopeStore = 'disk' | 'memory' | 'none';

/** The host's answer to a request, as the popup's other answers come (relay.ts). */
export interface FilePushAnswer {
  id: string;
  /** None when the background did not answer (relay.ts words that). */
  answer: RelayAnswer | undefined;
  envelope: EnvelopeStore;
}

/** What goes over the channel. */
export type FileChannelMessage = FilePushRequest | FileHostAlive | FilePushAnswer;

/** The server's answer to the host's upload, or why there was none, for the background to read (relay-handler.ts). */
export type UploadReport =
  | { status: number; retryAfter: string | null; body: string }
  | { networkError: string }
  /** Nothing was sent: the file could not be read or encrypted (its error's message). */
  | { failed: string };
