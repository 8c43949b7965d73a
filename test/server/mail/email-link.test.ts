import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router';
import { encodeLinkKey, newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { createPush, waitFor } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';

/**
 * tRPC pushes.emailLink: the extension's "E-mail the link…" for a push already made (issue 31
 * item 5). Real server (both stores), real SMTP. limits.email_links says whether it is offered.
 */
describe('e-mailing the link of an existing push (pushes.emailLink)', () => {
  const harness = smtpAndServer();
  let plain: TestServer;
  const trpc = (s: TestServer, token?: string) =>
    createTRPCClient<AppRouter>({ links: [httpLink({ url: `${s.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })] });
  const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as TRPCClientError<AppRouter>);

  beforeAll(async () => {
    plain = await startServer();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it('limits.email_links is true with SMTP_URL and false without', async () => {
    expect((await trpc(harness.server).limits.query()).email_links).toBe(true);
    expect((await trpc(plain).limits.query()).email_links).toBe(false);
  });

  it('the owner e-mails the link with a note; an end-to-end push carries the key the browser sent', async () => {
    const sender = `el-${Date.now()}@example.test`;
    const { token } = await createUserWithToken(harness.server, sender);
    const push = await createPush(harness.server, { payload: 'the secret' }, token);
    const to = `el-r-${Date.now()}@example.test`;
    expect(await trpc(harness.server, token).pushes.emailLink.mutate({ url_token: push.url_token, notify_emails: [to], notify_note: 'From the extension' })).toEqual({ sent: 1 });
    await waitFor(() => harness.smtp.received.some((m) => m.to.includes(to)), 20_000, 'the mail');
    const mail = harness.smtp.received.find((m) => m.to.includes(to))!;
    expect(mail.parsed.text).toContain(push.html_url);
    expect(mail.parsed.text).toContain('> From the extension');
    expect(mail.parsed.replyTo?.text).toBe(sender);

    // An end-to-end push: refused without the key (the server does not have it); with the key
    // the browser sends, the mail holds the whole link.
    const key = newPushKey();
    const linkKey = await encodeLinkKey(key);
    const e2e = await createPush(harness.server, { payload: await encryptTextPayload(key, 'sealed'), end_to_end: true }, token);
    const e2eTo = `el-e2e-${Date.now()}@example.test`;
    const noKey = await failure(trpc(harness.server, token).pushes.emailLink.mutate({ url_token: e2e.url_token, notify_emails: [e2eTo] }));
    expect(noKey?.data?.httpStatus).toBe(422);
    expect(noKey?.message).toContain('needs the key of its link');
    const notE2e = await failure(trpc(harness.server, token).pushes.emailLink.mutate({ url_token: push.url_token, notify_emails: [e2eTo], link_key: linkKey }));
    expect(notE2e?.data?.httpStatus).toBe(422);
    expect(await trpc(harness.server, token).pushes.emailLink.mutate({ url_token: e2e.url_token, notify_emails: [e2eTo], link_key: linkKey })).toEqual({ sent: 1 });
    await waitFor(() => harness.smtp.received.some((m) => m.to.includes(e2eTo)), 20_000, 'the end-to-end mail');
    expect(harness.smtp.received.filter((m) => m.to.includes(e2eTo))).toHaveLength(1);
    expect(harness.smtp.received.find((m) => m.to.includes(e2eTo))!.parsed.text).toContain(`${e2e.html_url}#${linkKey}`);
  });

  it('refused: another account\'s push (not found), anonymous, no address, 6 addresses, a server without SMTP', async () => {
    const { token: owner } = await createUserWithToken(harness.server, `el-o-${Date.now()}@example.test`);
    const { token: other } = await createUserWithToken(harness.server, `el-x-${Date.now()}@example.test`);
    const push = await createPush(harness.server, { payload: 'mine' }, owner);
    const input = { url_token: push.url_token, notify_emails: ['someone@example.test'] };
    expect((await failure(trpc(harness.server, other).pushes.emailLink.mutate(input)))?.data?.httpStatus).toBe(404);
    expect((await failure(trpc(harness.server).pushes.emailLink.mutate(input)))?.data?.httpStatus).toBe(401);
    expect((await failure(trpc(harness.server, owner).pushes.emailLink.mutate({ ...input, notify_emails: [] })))?.data?.httpStatus).toBe(422);
    const six = Array.from({ length: 6 }, (_, i) => `six${i}@example.test`);
    expect((await failure(trpc(harness.server, owner).pushes.emailLink.mutate({ ...input, notify_emails: six })))?.data?.httpStatus).toBe(422);
    const { token: plainToken } = await createUserWithToken(plain, `el-p-${Date.now()}@example.test`);
    const plainPush = await createPush(plain, { payload: 'no mail here' }, plainToken);
    expect((await failure(trpc(plain, plainToken).pushes.emailLink.mutate({ ...input, url_token: plainPush.url_token })))?.data?.httpStatus).toBe(422);
    expect(harness.smtp.received.some((m) => m.to.includes('someone@example.test'))).toBe(false);
  });

  describe('over REST: POST /api/v2/pushes/:token/email', () => {
    const post = (s: TestServer, path: string, body: string, token?: string) =>
      fetch(`${s.url}/api/v2/pushes/${path}/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

    it('sends the same mail as tRPC: the token from the path, the addresses and note from the body', async () => {
      const { token } = await createUserWithToken(harness.server, `el-rest-${Date.now()}@example.test`);
      const push = await createPush(harness.server, { payload: 'over rest' }, token);
      const to = `el-rest-r-${Date.now()}@example.test`;
      // A url_token in the body does not redirect the mail to another push: the path's is used.
      const other = await createPush(harness.server, { payload: 'not this one' }, token);
      const res = await post(harness.server, push.url_token, JSON.stringify({ notify_emails: [to], notify_note: 'By REST', url_token: other.url_token }), token);
      expect(res).toEqual({ status: 200, body: { sent: 1 } });
      await waitFor(() => harness.smtp.received.some((m) => m.to.includes(to)), 20_000, 'the REST mail');
      const mail = harness.smtp.received.find((m) => m.to.includes(to))!;
      expect(mail.parsed.text).toContain(push.html_url);
      expect(mail.parsed.text).not.toContain(other.html_url);
      expect(mail.parsed.text).toContain('> By REST');
    });

    it('refuses with the right status and never a 500: anonymous, another account, bad JSON, no address, unknown token, no SMTP', async () => {
      const { token: owner } = await createUserWithToken(harness.server, `el-rest-o-${Date.now()}@example.test`);
      const { token: other } = await createUserWithToken(harness.server, `el-rest-x-${Date.now()}@example.test`);
      const push = await createPush(harness.server, { payload: 'mine, by rest' }, owner);
      const body = JSON.stringify({ notify_emails: ['rest-nobody@example.test'] });
      expect((await post(harness.server, push.url_token, body)).status).toBe(401);
      expect((await post(harness.server, push.url_token, body, other)).status).toBe(404);
      const notJson = await post(harness.server, push.url_token, '{"notify_emails": [', owner);
      expect(notJson.status).toBe(400);
      expect(String(notJson.body.error)).toContain('must be JSON');
      const none = await post(harness.server, push.url_token, JSON.stringify({ notify_emails: [] }), owner);
      expect(none.status).toBe(422);
      expect(none.body.notify_emails).toBeDefined();
      expect((await post(harness.server, push.url_token, '[1, 2]', owner)).status).toBe(422);
      expect((await post(harness.server, 'no-such-token-at-all', body, owner)).status).toBe(404);
      const { token: plainToken } = await createUserWithToken(plain, `el-rest-p-${Date.now()}@example.test`);
      const plainPush = await createPush(plain, { payload: 'no mail here' }, plainToken);
      expect((await post(plain, plainPush.url_token, body, plainToken)).status).toBe(422);
      expect(harness.smtp.received.some((m) => m.to.includes('rest-nobody@example.test'))).toBe(false);
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await fetch(`${harness.server.url}/api/v2/openapi.json`).then((r) => r.json())) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
      const op = doc.paths['/pushes/{url_token}/email']?.post;
      expect(op).toBeDefined();
      expect(JSON.stringify(op.requestBody)).toContain('notify_emails');
      expect(JSON.stringify(op.requestBody)).not.toContain('"url_token"');
    });
  });
});
