import { encryptFile } from '../../shared/e2e/file-transfer';
import { finishSlices, sendSlices } from '../../shared/e2e/sliced-upload-client';
import { spoolEncryptedFile, type SpooledEnvelope } from '../../shared/e2e/spool-in-worker';
import { discardSpooled, removeAbandonedSpool } from '../../shared/e2e/upload-spool';
import { envelopeForm, sealFileParts, type EnvelopeMaker } from './end-to-end';
import { plainFilePushForm } from './file-push-form';
import { restCreateRequest, restHeaders, restUrl } from './rest-create';
import { SPOOL_WORKER_SCRIPT, type Connection, type EnvelopeStore, type FilePushRequest, type UploadReport } from './file-host-protocol';

/**
 * The file host's work for one file push: encrypt the file (end to end) into the upload spool on
 * disk (shared/e2e/upload-spool.ts, as the server's create page does), upload it in slices
 * (shared/e2e/sliced-upload-client.ts: Firefox holds a request's whole body in memory, so no
 * request carries more than 8 MiB; in one request to a server without sliced uploads), and remove it.
 * Where the spool cannot be written the envelope is built as a Blob (file-transfer.ts), held in
 * memory. The server's answer is reported as it came: the background words failures and finishes
 * the link (relay-handler.ts), with the extension APIs an offscreen document does not have.
 */
export interface HostedUpload {
  report: UploadReport;
  /** The link's key of an end-to-end push (only the background adds it to the link). */
  linkKey?: string;
  envelope: EnvelopeStore;
}

/**
 * The API client's request (rest-create.ts), made without the client: it would share modules
 * with the popup, which would then load them as chunks of their own. Its answer is kept whatever
 * it is; the background reads it with the client (relay-handler.ts).
 */
const create = ({ serverUrl, apiToken }: Connection, form: FormData) => fetch(...restCreateRequest(serverUrl, apiToken?.trim(), form));

async function reported(request: () => Promise<Response>): Promise<UploadReport> {
  try {
    const res = await request();
    return { status: res.status, retryAfter: res.headers.get('Retry-After'), body: await res.text() };
  } catch (err) {
    return { networkError: err instanceof Error ? err.message : String(err) };
  }
}

/** An end-to-end file push in slices; in one request where the server has no sliced uploads. */
async function uploadSliced(connection: Connection, fields: Record<string, unknown>, envelope: Blob): Promise<UploadReport> {
  const target = { uploadsUrl: restUrl(connection.serverUrl, '/api/v2/uploads'), headers: restHeaders(connection.apiToken?.trim()) };
  return reported(async () => {
    const sent = await sendSlices(target, fields, [envelope]);
    if ('unsupported' in sent) return create(connection, envelopeForm(fields, envelope));
    return 'refused' in sent ? sent.refused : finishSlices(target, sent.upload);
  });
}

export async function hostFilePush({ connection, input, file, endToEnd }: Omit<FilePushRequest, 'id'>): Promise<HostedUpload> {
  if (!endToEnd) return { report: await reported(() => create(connection, plainFilePushForm(input, file))), envelope: 'none' };
  let spooled: SpooledEnvelope | null = null;
  const spoolOrBlob: EnvelopeMaker = async (key, f, options) => {
    spooled = await spoolEncryptedFile(SPOOL_WORKER_SCRIPT, key, f, options);
    return spooled?.file ?? encryptFile(key, f, options);
  };
  try {
    const { sealed, linkKey } = await sealFileParts(input, file, '', spoolOrBlob);
    return { report: await uploadSliced(connection, sealed.fields, sealed.envelope), linkKey, envelope: spooled ? 'disk' : 'memory' };
  } finally {
    const name = (spooled as SpooledEnvelope | null)?.name;
    if (name) await discardSpooled([name]);
  }
}

/** Envelopes a day old, left by a host that was closed in the middle of an upload. */
export const sweepAbandonedSpool = removeAbandonedSpool;
