// The create page with scripts on: text and file pushes are encrypted here, in the browser, and
// sent as end-to-end pushes; the key goes only into the link shown on the next page (kept in this
// tab's sessionStorage for that one step). Without scripts, or without WebCrypto, the form is
// posted as it is (an ordinary push, encrypted at rest by the server). A file's envelope is
// written to disk as it is encrypted (the origin private file system) where the browser allows,
// so that a large file is not held in memory until it has been sent, and sent in 8 MiB slices
// (upload-page-routes.ts; Firefox holds a request's whole body in memory) before the form, which
// then carries only the upload's id and creates the push. A refusal that concerns the files as
// a whole (too large, over the daily quota, no room left) is shown here at once, with the form
// and the chosen files kept; where the sliced upload is refused otherwise (a field) or fails,
// the form carries the envelopes itself as before.
// The form is posted from here (fetch), never changed: when the server refuses it, its answer's
// messages are shown in this page's form, which still holds the text, the passphrase and the
// files the user gave (the server only ever saw ciphertext, so its own copy of the form cannot
// show them back). A passphrase goes to the server only as its check (shared/e2e/passphrase-check.ts),
// so that the recipient's page asks for it before a view is spent and wrong ones are counted.
import { encryptFile } from '../../../../shared/e2e/file-transfer.js';
import { sendSlices } from '../../../../shared/e2e/sliced-upload-client.js';
import { discardSpooled, removeAbandonedSpool } from '../../../../shared/e2e/upload-spool.js';
import { spoolEncryptedFile } from './upload-spool/spool-in-worker.js';
import { encodeLinkKey, newPushKey } from '../../../../shared/e2e/link-key.js';
import { passphraseCheck } from '../../../../shared/e2e/passphrase-check.js';
import { encryptManifestPayload, encryptTextPayload } from '../../../../shared/e2e/push-content.js';
import { enhanceEmailLinkForms, sendEmailLinkForm } from './email-link/send-email-link.js';

const KEY_ITEM = 'secret-push:e2e-link-key';
/** The spooled envelopes this tab's last submission uploaded: removed by the page that follows. */
const SPOOL_ITEM = 'secret-push:e2e-spooled';
/**
 * The create form's recipients (push[notify_emails], push[notify_note]): never posted with an
 * end-to-end push (the server could not put its key in the mail); the page that follows sends
 * them through its "E-mail the link…" form with the key (email-link/send-email-link.ts).
 */
const RECIPIENT_FIELDS = ['push[notify_emails]', 'push[notify_note]'];

function discardThisTabsSpool() {
  const names = JSON.parse(sessionStorage.getItem(SPOOL_ITEM) ?? '[]') as string[];
  sessionStorage.removeItem(SPOOL_ITEM);
  void discardSpooled(names);
}

function enhanceForm(form: HTMLFormElement) {
  sessionStorage.removeItem(KEY_ITEM);
  // Back on the form after a submission (refused, or the way back): its upload has ended.
  discardThisTabsSpool();
  void removeAbandonedSpool();
  // The one encryption line that applies: in the browser for text and files, on the server for URLs and QR codes.
  const notes = {
    browser: form.querySelector<HTMLElement>('[data-e2e-create-note]'),
    server: form.querySelector<HTMLElement>('[data-encryption-note="server"]'),
    serverKinds: form.querySelector<HTMLElement>('[data-encryption-note="server-kinds"]'),
  };
  const showEncryptionNote = () => {
    const kind = form.querySelector<HTMLInputElement>('[data-kind-choice]:checked')?.value ?? 'text';
    const inBrowser = kind === 'text' || kind === 'file';
    if (notes.browser) notes.browser.hidden = !inBrowser;
    if (notes.serverKinds) notes.serverKinds.hidden = inBrowser;
    if (notes.server) notes.server.hidden = true;
  };
  showEncryptionNote();
  form.querySelectorAll('[data-kind-choice]').forEach((choice) => choice.addEventListener('change', showEncryptionNote));
  let busy = false;
  form.addEventListener('submit', async (event) => {
    const kind = form.querySelector<HTMLInputElement>('[data-kind-choice]:checked')?.value ?? 'text';
    // URL and QR pushes need the server to read them (redirect, drawing): they stay as they are.
    if (kind !== 'text' && kind !== 'file') return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    const working = form.querySelector<HTMLElement>('[data-e2e-state="encrypting"]');
    const failed = form.querySelector<HTMLElement>('[data-e2e-problem="encrypt"]');
    if (working) working.hidden = false;
    if (failed) failed.hidden = true;
    const refused = form.querySelector<HTMLElement>('[data-e2e-problem="refused"]');
    if (refused) refused.hidden = true;
    try {
      await encryptAndSubmit(form, kind);
    } catch (e) {
      // Nothing was created: the server's refusal in its words, or the encryption's failure.
      discardThisTabsSpool();
      if (working) working.hidden = true;
      const problem = e instanceof UploadRefused && refused ? refused : failed;
      if (e instanceof UploadRefused && refused) refused.textContent = e.message;
      if (problem) problem.hidden = false;
      busy = false;
    }
  });
}

/** Encrypts everything, then posts the form's fields with the ciphertext in place of what was typed (the form itself is left as it is). */
async function encryptAndSubmit(form: HTMLFormElement, kind: string) {
  const key = newPushKey();
  const passphraseInput = form.querySelector<HTMLInputElement>('#passphrase');
  const passphrase = passphraseInput?.value || undefined;
  const options = passphrase ? { passphrase } : {};
  const check = passphrase ? await passphraseCheck(key, passphrase) : undefined;
  const textArea = form.querySelector<HTMLTextAreaElement>('#payload');
  const fileInput = form.querySelector<HTMLInputElement>('#files');
  let payload: string;
  let sealed: File[] = [];
  let slicedUpload: string | undefined;
  const spooledNames: string[] = [];
  if (kind === 'text') payload = await encryptTextPayload(key, textArea?.value ?? '', options);
  else {
    const files = [...(fileInput?.files ?? [])];
    for (const [i, file] of files.entries()) {
      const spooled = await spoolEncryptedFile(key, file, options);
      if (spooled) {
        spooledNames.push(spooled.name);
        // Recorded at once, so that a failure further on removes it too.
        sessionStorage.setItem(SPOOL_ITEM, JSON.stringify(spooledNames));
      }
      const envelope = spooled?.file ?? (await encryptFile(key, file, options));
      sealed.push(new File([envelope], `file-${i + 1}.bin`, { type: 'application/octet-stream' }));
    }
    payload = await encryptManifestPayload(key, { message: '', files: files.map((f) => ({ name: f.name, type: f.type, size: f.size })) }, options);
    slicedUpload = await sendInSlices(form, payload, sealed, check);
    if (slicedUpload) sealed = [];
  }
  const linkKey = await encodeLinkKey(key);

  const fields = new FormData(form);
  const recipients = { emails: String(fields.get('push[notify_emails]') ?? '').trim(), note: String(fields.get('push[notify_note]') ?? '') };
  for (const name of RECIPIENT_FIELDS) fields.delete(name);
  // The passphrase is mixed into the key here; the server gets only its check (asked for before a view).
  fields.delete('push[passphrase]');
  if (check) fields.set('push[passphrase]', check);
  fields.delete('push[files][]');
  fields.set('push[payload]', payload);
  fields.set('push[end_to_end]', 'true');
  if (slicedUpload) fields.set('push[sliced_upload]', slicedUpload);
  for (const file of sealed) fields.append('push[files][]', file, file.name);
  sessionStorage.setItem(KEY_ITEM, linkKey);
  const answer = await fetch(form.action, { method: 'POST', body: fields, credentials: 'same-origin' });
  const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
  if (answer.ok && page.getElementById('secret-link')) return showCreated(page, recipients);
  sessionStorage.removeItem(KEY_ITEM);
  // A refused finish leaves its upload behind: give it up (its slices, the day's quota).
  if (slicedUpload) void giveUpUpload(form, slicedUpload);
  const refusedForm = page.getElementById('create-form');
  if (refusedForm instanceof HTMLFormElement) return showRefused(form, refusedForm, page);
  throw new UploadRefused(page.querySelector('main h1')?.textContent?.trim() || `HTTP ${answer.status}`);
}

/** The "link ready" page the server answered, in place of this one, with the link completed. */
function showCreated(page: Document, recipients: { emails: string; note: string }) {
  const main = putInPlace(page);
  rerunPageScript('pages.js');
  const linkNote = document.querySelector<HTMLElement>('[data-e2e-link-note]');
  if (linkNote) completeLink(linkNote);
  main.querySelector<HTMLElement>('h1')?.focus();
  enhanceEmailLinkForms(main);
  const mailForm = main.querySelector<HTMLFormElement>('form[data-email-link-form]');
  if (recipients.emails && mailForm) void mailTheLink(mailForm, recipients);
}

/** The recipients typed on the create form, sent with the link's key from the page that shows it. */
function mailTheLink(form: HTMLFormElement, recipients: { emails: string; note: string }) {
  const emails = form.querySelector<HTMLInputElement>('[name="notify_emails"]');
  const note = form.querySelector<HTMLTextAreaElement>('[name="notify_note"]');
  if (emails) emails.value = recipients.emails;
  if (note) note.value = recipients.note;
  const details = form.closest('details');
  if (details) details.open = true;
  return sendEmailLinkForm(form);
}

/**
 * The server's form with its messages, in place of this one, holding what the user gave: the
 * text, the passphrase and the chosen files are moved over from the form they were typed into
 * (the server's copy has none of them: it saw only ciphertext).
 */
function showRefused(form: HTMLFormElement, refusedForm: HTMLFormElement, page: Document) {
  // The recipients too: they were kept out of the post (RECIPIENT_FIELDS).
  for (const id of ['payload', 'passphrase', 'files', 'notify_emails', 'notify_note']) {
    const typed = form.querySelector(`#${id}`);
    const blank = refusedForm.querySelector(`#${id}`);
    if (typed && blank) {
      for (const attribute of ['aria-invalid', 'aria-describedby']) {
        const value = blank.getAttribute(attribute);
        if (value === null) typed.removeAttribute(attribute);
        else typed.setAttribute(attribute, value);
      }
      blank.replaceWith(typed);
    }
  }
  const main = putInPlace(page);
  rerunPageScript('create.js');
  const shown = main.querySelector<HTMLFormElement>('#create-form');
  if (shown) enhanceForm(shown);
  const first = main.querySelector<HTMLElement>('.notice.error, [aria-invalid="true"]');
  if (first) {
    if (!first.matches('input, textarea, select')) first.tabIndex = -1;
    first.focus();
  }
}

/** The answered page's content and title in place of this page's: its <main>. */
function putInPlace(page: Document): HTMLElement {
  const main = document.querySelector('main');
  const answered = page.querySelector('main');
  if (!main || !answered) throw new Error('The answer has no page content.');
  document.title = page.title;
  main.replaceChildren(...answered.childNodes);
  return main;
}

/** A page script of the layout's, run again over the content put in place here. */
function rerunPageScript(name: string) {
  const script = document.createElement('script');
  script.src = `/assets/${name}`;
  document.head.append(script);
}

function giveUpUpload(form: HTMLFormElement, upload: string) {
  const csrf = form.querySelector<HTMLInputElement>('input[name="csrf_token"]')?.value ?? '';
  return fetch(`/uploads/${encodeURIComponent(upload)}`, { method: 'DELETE', headers: { 'X-CSRF-Token': csrf }, credentials: 'same-origin' }).catch(() => undefined);
}

/** The server refused the files as a whole: nothing to post, its sentence to show. */
class UploadRefused extends Error {}

/** Refusals of the files as a whole, whatever the form's fields: too large, over the daily quota, no room. */
const FILES_REFUSED = new Set([413, 429, 507]);

/**
 * The envelopes sent as a sliced upload with the form's push fields (the passphrase's check in
 * place of the passphrase, which is mixed into the key): the upload's id for the form to finish, or undefined where it was refused or
 * failed otherwise (the form then carries the envelopes). Throws UploadRefused for FILES_REFUSED.
 */
async function sendInSlices(form: HTMLFormElement, payload: string, envelopes: File[], check: string | undefined): Promise<string | undefined> {
  const push: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    const field = /^push\[(\w+)\]$/.exec(name)?.[1];
    if (field && field !== 'passphrase' && !RECIPIENT_FIELDS.includes(name) && typeof value === 'string') push[field] = value;
  }
  if (check) push.passphrase = check;
  Object.assign(push, { kind: 'file', payload, end_to_end: 'true' });
  const csrf = form.querySelector<HTMLInputElement>('input[name="csrf_token"]')?.value ?? '';
  let sent: Awaited<ReturnType<typeof sendSlices>>;
  try {
    sent = await sendSlices({ uploadsUrl: '/uploads', headers: { 'X-CSRF-Token': csrf } }, push, envelopes);
  } catch {
    return undefined;
  }
  if ('upload' in sent) return sent.upload;
  if ('refused' in sent && FILES_REFUSED.has(sent.refused.status)) {
    const answer = (await sent.refused.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof answer?.error === 'string') throw new UploadRefused(answer.error);
  }
  return undefined;
}

function completeLink(note: HTMLElement) {
  discardThisTabsSpool();
  const link = document.getElementById('secret-link');
  const key = sessionStorage.getItem(KEY_ITEM);
  sessionStorage.removeItem(KEY_ITEM);
  if (!link || !key) {
    note.hidden = true;
    const lost = document.querySelector<HTMLElement>('[data-e2e-problem="key-lost"]');
    if (lost) lost.hidden = false;
    if (link) link.closest('.link-box')?.setAttribute('hidden', '');
    return;
  }
  link.textContent = `${link.textContent}#${key}`;
  // Its QR code, drawn in this browser from the whole link (browser/e2e-link-qr.ts).
  const qr = document.createElement('script');
  qr.src = '/assets/e2e-link-qr.js';
  document.head.append(qr);
}

const form = document.getElementById('create-form');
const linkNote = document.querySelector<HTMLElement>('[data-e2e-link-note]');
if (form instanceof HTMLFormElement && globalThis.crypto?.subtle && typeof DOMParser === 'function') enhanceForm(form);
else if (linkNote) completeLink(linkNote);
