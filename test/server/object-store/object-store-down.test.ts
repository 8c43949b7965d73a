import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { serverOnObjectStore, type ServerOnObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { storedBlobs } from '../../support/stored-data.js';
import type { TestServer } from '../../support/server.js';

let setup: ServerOnObjectStore;
let s3: TestObjectStore;
let server: TestServer;
let owner: string;

beforeAll(async () => {
  setup = await serverOnObjectStore('s3-down@example.com');
  ({ s3, server, owner } = setup);
});
afterAll(() => setup?.stop());

function fileForm(content: string) {
  const fd = new FormData();
  fd.append('push[payload]', 'see attached');
  fd.append('push[files][]', new Blob([content], { type: 'text/plain' }), 'notes.txt');
  return fd;
}

async function fileUrlOf(token: string): Promise<string> {
  const shown = await api.get(server, `/api/v2/pushes/${token}`);
  expect(shown.status).toBe(200);
  return (shown.body.files as { url: string }[])[0]!.url;
}

describe('object storage unreachable (FILE_STORAGE=s3, s3rver killed)', () => {
  it('file routes answer 503 with Retry-After, text pushes keep working, and files work again once the store is back', async () => {
    const before = await api.post(server, '/api/v2/pushes', { token: owner, raw: fileForm('stored before the outage') });
    expect(before.status).toBe(201);
    const fileUrl = await fileUrlOf(before.body.url_token);

    await s3.stop();
    try {
      const create = await api.post(server, '/api/v2/pushes', { token: owner, raw: fileForm('during the outage') });
      expect(create.status).toBe(503);
      expect(create.headers.get('retry-after')).toMatch(/^\d+$/);

      const download = await fetch(fileUrl);
      expect(download.status).toBe(503);
      expect(download.headers.get('retry-after')).toMatch(/^\d+$/);
      await download.arrayBuffer();

      const text = await api.post(server, '/api/v2/pushes', { token: owner, json: { push: { payload: 'text still works' } } });
      expect(text.status).toBe(201);
      expect((await api.get(server, `/api/v2/pushes/${text.body.url_token}`)).body.payload).toBe('text still works');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await s3.restart();
    }

    // Back by itself: no restart of the server.
    const again = await fetch(fileUrl);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('stored before the outage');
    const after = await api.post(server, '/api/v2/pushes', { token: owner, raw: fileForm('after the outage') });
    expect(after.status).toBe(201);
    expect(await storedBlobs(server, after.body.url_token)).toHaveLength(1);
  });
});
