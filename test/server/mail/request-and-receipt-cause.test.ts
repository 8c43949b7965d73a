import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router.js';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { smtpAndServer, type ReceivedMail } from '../../support/smtp-receiver.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * Issue 31's leftovers: "E-mail me when it is answered" on the page that makes a secret request
 * (starting as the account's default, only with SMTP and signed in) and in the owner's request
 * JSON (REST, tRPC, OpenAPI); and receipts that say truly why they were sent — the push or
 * request asked, or the account's setting did (decided when it was made, with a link to the
 * setting). Real server (both stores), real SMTP.
 */
describe('request e-mail choice and receipt cause', () => {
  const mail = smtpAndServer({ REQUIRE_EMAIL_CONFIRMATION: 'false' });

  const signedIn = async (prefix: string, headers: Record<string, string> = {}) => {
    const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const { token, userId } = await createUserWithToken(mail.server, email);
    await mail.server.server.accounts.setPassword(email, 'cause horse battery staple');
    const b = new Browser(mail.server, headers);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'cause horse battery staple' })).status).toBe(303);
    return { email, token, userId, b };
  };
  const setDefaults = async (b: Browser, fields: Record<string, string>) => {
    const settings = await b.get('/users/mail-settings');
    expect((await b.post('/users/mail-settings', { csrf_token: csrfFrom(settings.text, '/users/mail-settings'), ...fields })).status).toBe(200);
  };
  const box = /<input type="checkbox" name="email_on_answer" value="true"( checked)?/;
  const makeOnPage = async (b: Browser, title: string, checked: boolean) => {
    const page = await b.get('/users/requests');
    const fields: Record<string, string> = { csrf_token: csrfFrom(page.text, '/users/requests'), title, expire_after_days: '7', answer_expire_after_days: '7', answer_expire_after_views: '1' };
    if (checked) fields.email_on_answer = 'true';
    const made = await b.post('/users/requests', fields);
    expect(made.status).toBe(200);
    return made;
  };
  const textOf = (m: ReceivedMail) => m.parsed.text ?? '';

  it('the request page offers the box, unchecked by default and checked once the account default asks; the form decides; REST and tRPC answer email_on_answer', async () => {
    const { token, b } = await signedIn('request-box');
    const first = await b.get('/users/requests');
    expect(box.exec(first.text)?.[0]).toBeDefined();
    expect(box.exec(first.text)![1]).toBeUndefined();
    expect(first.text).toContain('E-mail me when it is answered');

    await makeOnPage(b, 'asked on the page', true);
    await makeOnPage(b, 'left unchecked', false);
    await setDefaults(b, { request_answered: 'true' });
    const later = await b.get('/users/requests');
    expect(box.exec(later.text)![1]).toBe(' checked');
    // The default is on, but the page's form sent no box: no e-mail for this one.
    await makeOnPage(b, 'unchecked despite the default', false);

    const listed = (await api.get(mail.server, '/api/v2/secret-requests', { token })).body as { title: string; email_on_answer: boolean }[];
    expect(Object.fromEntries(listed.map((r) => [r.title, r.email_on_answer]))).toEqual({ 'asked on the page': true, 'left unchecked': false, 'unchecked despite the default': false });

    // REST: the created answer says it; left out, the account's default (now on) decides.
    const restNo = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'rest no', email_on_answer: false } });
    expect(restNo.status).toBe(201);
    expect(restNo.body.email_on_answer).toBe(false);
    const restDefault = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'rest default' } });
    expect(restDefault.body.email_on_answer).toBe(true);

    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${mail.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    const viaTrpc = await trpc.requests.create.mutate({ title: 'trpc yes', email_on_answer: true });
    expect(viaTrpc.email_on_answer).toBe(true);
    const closed = await trpc.requests.close.mutate({ url_token: viaTrpc.url_token });
    expect(closed.email_on_answer).toBe(true);
    expect((await trpc.requests.list.query()).find((r) => r.title === 'rest no')!.email_on_answer).toBe(false);

    const doc = (await fetch(`${mail.server.url}/api/v2/openapi.json`).then((r) => r.json())) as { components: { schemas: Record<string, { properties: Record<string, { type?: string }>; required?: string[] }> } };
    expect(doc.components.schemas.OwnerRequest!.properties.email_on_answer).toMatchObject({ type: 'boolean' });
    expect(doc.components.schemas.OwnerRequest!.required).toContain('email_on_answer');
    expect(doc.components.schemas.RequestInput!.properties).toHaveProperty('email_on_answer');
  });

  it('a receipt the push asked for says so; one the account default asked for says that, with a link to the setting (both parts, German too)', async () => {
    const { email, token, b } = await signedIn('cause-push');
    await setDefaults(b, { opened: 'true' });
    const asked = await createPush(mail.server, { payload: 'asked', name: 'Asked itself', email_on_open: true }, token);
    expect((await api.get(mail.server, `/p/${asked.url_token}.json`)).status).toBe(200);
    const askedMail = await mail.smtp.mailTo(email, 1);
    expect(askedMail.parsed.subject).toContain('Asked itself');
    expect(textOf(askedMail)).toContain('You asked for this e-mail when you made the push.');
    expect(textOf(askedMail)).not.toContain('/users/mail-settings');

    const byDefault = await createPush(mail.server, { payload: 'default', name: 'Left to the default' }, token);
    expect((await api.get(mail.server, `/p/${byDefault.url_token}.json`)).status).toBe(200);
    const defaultMail = (await mail.smtp.mailTo(email, 2), mail.smtp.mailsTo(email).find((m) => m.parsed.subject?.includes('Left to the default'))!);
    expect(textOf(defaultMail)).not.toContain('You asked for this e-mail');
    expect(textOf(defaultMail)).toContain('Your account’s e-mail settings ask for this e-mail for pushes that do not say otherwise');
    expect(textOf(defaultMail)).toContain(`${mail.server.url}/users/mail-settings`);
    expect(String(defaultMail.parsed.html)).toContain(`<a href="${mail.server.url}/users/mail-settings">`);

    // The cause is what was decided at the push's making: turning the default off later does not make it "asked".
    const { email: deEmail, token: deToken, b: deBrowser } = await signedIn('cause-de', { 'accept-language': 'de' });
    await setDefaults(deBrowser, { opened: 'true' });
    const german = await createPush(mail.server, { payload: 'deutsch', name: 'Router' }, deToken);
    await setDefaults(deBrowser, {});
    expect((await api.get(mail.server, `/p/${german.url_token}.json`)).status).toBe(200);
    const de = await mail.smtp.mailTo(deEmail);
    expect(textOf(de)).toContain('Die E-Mail-Einstellungen Ihres Kontos fordern diese E-Mail für Pushs an');
    expect(textOf(de)).toContain('/users/mail-settings');
  });

  it('a request\'s answered mail says whether the request asked or the account default did', async () => {
    const { email, token, b } = await signedIn('cause-request');
    await setDefaults(b, { request_answered: 'true' });
    const asked = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'Asked request', email_on_answer: true } });
    const byDefault = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'Default request' } });
    for (const r of [asked, byDefault]) expect((await api.post(mail.server, `/api/v2/secret-requests/${r.body.url_token}/answer`, { json: { payload: 'x' } })).status).toBeLessThan(300);
    await mail.smtp.mailTo(email, 2);
    const of = (title: string) => mail.smtp.mailsTo(email).find((m) => m.parsed.subject?.includes(title))!;
    expect(textOf(of('Asked request'))).toContain('You asked for this e-mail when you made the request.');
    expect(textOf(of('Asked request'))).not.toContain('/users/mail-settings');
    expect(textOf(of('Default request'))).toContain('Your account’s e-mail settings ask for this e-mail for requests that do not say otherwise');
    expect(textOf(of('Default request'))).toContain(`${mail.server.url}/users/mail-settings`);
  });
});

describe('request page without SMTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('offers no e-mail box, and the owner JSON says false', async () => {
    const email = `no-smtp-${Date.now()}@example.test`;
    const { token } = await createUserWithToken(server, email);
    await server.server.accounts.setPassword(email, 'cause horse battery staple');
    const b = new Browser(server);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'cause horse battery staple' })).status).toBe(303);
    const page = await b.get('/users/requests');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="email_on_answer"');
    const made = await b.post('/users/requests', { csrf_token: csrfFrom(page.text, '/users/requests'), title: 'plain', expire_after_days: '7', answer_expire_after_days: '7', answer_expire_after_views: '1' });
    expect(made.status).toBe(200);
    expect((await api.get(server, '/api/v2/secret-requests', { token })).body[0].email_on_answer).toBe(false);
  });
});
