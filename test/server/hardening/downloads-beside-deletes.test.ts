import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * A file download racing what removes its file: the push deleted by its viewer, or expired by
 * its last view, while downloads of its file are starting or under way. Each download is the
 * whole file or a 404 (the same answer as after the delete); never a 500, and never a
 * connection cut in the middle of a file the server had begun to send. (On PostgreSQL a file
 * longer than one read, 1 MiB, removed in the middle of its transfer still ends that download
 * early; on the embedded store an open file outlives its name.)
 */

const FILE_BYTES = 600_000;
const ROUNDS = 12;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ FILES_REQUIRE_AUTH: 'false' });
});
afterAll(() => server.stop());

/** Distinct bytes, so that a download made of the wrong parts would not compare equal. */
const content = Buffer.from(Array.from({ length: FILE_BYTES }, (_, i) => (i * 2654435761) >>> 24));

async function filePush(views: number): Promise<{ token: string; fileUrl: string }> {
  const form = new FormData();
  form.append('push[expire_after_views]', String(views));
  form.append('push[deletable_by_viewer]', 'true');
  form.append('push[files][]', new Blob([content]), 'race.bin');
  const created = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', body: form });
  expect(created.status).toBe(201);
  const { url_token: token } = (await created.json()) as { url_token: string };
  const shown = (await (await fetch(`${server.url}/api/v2/pushes/${token}`)).json()) as { files: { url: string }[] };
  return { token, fileUrl: shown.files[0]!.url };
}

/** A download's outcome: its status, and for a 200 whether every byte arrived as stored. */
async function download(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    return `no answer: ${(e as Error).message}`;
  }
  try {
    const body = Buffer.from(await res.arrayBuffer());
    return res.status === 200 ? (body.equals(content) ? '200 whole' : `200 with ${body.length} of ${FILE_BYTES} bytes`) : String(res.status);
  } catch (e) {
    return `${res.status}, cut: ${(e as Error).message}`;
  }
}

describe('file downloads beside what removes the file', () => {
  it('the push deleted while its file downloads: each download is whole or 404', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const { token, fileUrl } = await filePush(5);
      const [deleted, ...downloads] = await Promise.all([
        // The delete is sent beside the downloads, at a point that moves from round to round.
        new Promise<number>((resolve) => setTimeout(() => void fetch(`${server.url}/api/v2/pushes/${token}`, { method: 'DELETE' }).then((r) => resolve(r.status)), round % 4)),
        download(fileUrl),
        download(fileUrl),
        download(fileUrl),
      ]);
      expect(deleted).toBe(200);
      for (const d of downloads) outcomes.add(d);
      // After the delete, the file is gone.
      expect(await download(fileUrl)).toBe('404');
    }
    expect([...outcomes].filter((o) => o !== '200 whole' && o !== '404')).toEqual([]);
  });

  it('the last view used up while its file downloads: each download is whole or 404', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      // Two views: the first (above, in filePush) handed out the download link, the second expires the push.
      const { token, fileUrl } = await filePush(2);
      const [, ...downloads] = await Promise.all([fetch(`${server.url}/api/v2/pushes/${token}`).then((r) => r.text()), download(fileUrl), download(fileUrl)]);
      for (const d of downloads) outcomes.add(d);
    }
    expect([...outcomes].filter((o) => o !== '200 whole' && o !== '404')).toEqual([]);
  });
});
