// The recipient page of an end-to-end push (and its retrieval step): checks the key in the
// link's fragment before anything is retrieved (and, for a push with a passphrase check, asks
// for the passphrase first), then retrieves, decrypts and shows the secret.
// Everything it may say is in the page, hidden, in the page's language (end-to-end-pages.tsx).
import { EnvelopeError } from '../../../../shared/e2e/envelope-crypto.js';
import { neutraliseControls } from '../../../../shared/neutralise-controls.js';
import { decryptDownload } from '../../../../shared/e2e/file-transfer.js';
import { removeLeftDownloads, spoolDecryptedDownload } from '../../../../shared/e2e/download-spool.js';
import { decodeLinkKey } from '../../../../shared/e2e/link-key.js';
import { passphraseCheck } from '../../../../shared/e2e/passphrase-check.js';
import { decryptPayload, payloadNeedsPassphrase, type E2eManifest, type OpenedPayload } from '../../../../shared/e2e/push-content.js';
import { saveThroughWorker, saveWorker } from './streaming-save/save-through-worker.js';


const $ = <T extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document) => root.querySelector<T>(selector);

function show(selector: string, root: ParentNode = document) {
  const el = $(selector, root);
  if (el) el.hidden = false;
  return el;
}

function hide(selector: string, root: ParentNode = document) {
  const el = $(selector, root);
  if (el) el.hidden = true;
}

function problem(name: string) {
  hide('[data-e2e-state="working"]');
  show(`[data-e2e-problem="${name}"]`);
}

async function checkedKey(): Promise<Uint8Array | null> {
  if (!globalThis.crypto?.subtle) {
    problem('unsupported');
    return null;
  }
  const result = await decodeLinkKey(location.hash);
  if (!result.ok) {
    problem(result.problem);
    return null;
  }
  return result.key;
}

async function retrievalStep(root: HTMLElement) {
  const reveal = $<HTMLAnchorElement>('#reveal', root);
  if (reveal) reveal.hidden = true;
  if (!(await checkedKey()) || !reveal) return;
  // The next page needs the key too: a link drops the current page's fragment.
  reveal.href = reveal.href.split('#')[0] + location.hash;
  reveal.hidden = false;
}

interface Opened {
  payload: string;
  files: string[];
  views_remaining: number;
  remaining: string;
  /** Proof for the delete form that this viewer gave the passphrase (pushes with a passphrase check). */
  delete_ticket: { exp: string; ticket: string } | null;
}

/** Retrieves the push (one view): its envelope, or why not ('wrong'/'limit': the passphrase check, nothing spent). */
async function open(root: HTMLElement, check?: string): Promise<Opened | 'wrong' | 'limit' | null> {
  let res: Response;
  const fields = new URLSearchParams({ csrf_token: root.dataset.csrf ?? '' });
  if (check !== undefined) fields.set('passphrase', check);
  try {
    res = await fetch(root.dataset.open!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields,
      credentials: 'same-origin',
    });
  } catch {
    problem('fetch');
    return null;
  }
  if (res.status === 401 && check !== undefined) return 'wrong';
  if (res.status === 429 && check !== undefined) return 'limit';
  if (res.status === 404) {
    problem('expired');
    return null;
  }
  if (!res.ok) {
    problem('fetch');
    return null;
  }
  return (await res.json()) as Opened;
}

function formatSize(bytes: number) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) (n /= 1024), u++;
  return `${new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 1 }).format(n)} ${units[u]}`;
}

function saveBlob(blob: Blob, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The object URL stays valid until the page goes (a download may still be reading it).
  addEventListener('pagehide', () => URL.revokeObjectURL(a.href), { once: true });
}

/** The Blob path, where there is no save worker: the whole file is decrypted before it is saved. */
async function saveWhenDecrypted(url: string, key: Uint8Array, passphrase: string | undefined, name: string, type: string) {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok || !res.body) throw new Error(`download answered ${res.status}`);
  saveBlob(await decryptDownload(key, res.body, type || 'application/octet-stream', { passphrase }), name);
}

/**
 * Firefox holds a service worker's response in memory as fast as it is produced (a 1 GiB
 * download through the save worker peaked at +2.3 GB), but not the download of a disk-backed
 * File: there the file is decrypted into the download spool first (download-spool.ts). Chromium
 * streams through the save worker with bounded memory and an early first byte. A name test, not
 * a feature test: the difference is in how the browser reads a response, which no API reveals.
 */
const SPOOL_DOWNLOADS = /\bFirefox\//.test(navigator.userAgent);

function showFiles(manifest: E2eManifest, opened: Opened, key: Uint8Array, passphrase: string | undefined) {
  const box = show('#e2e-files')!;
  if (SPOOL_DOWNLOADS) void removeLeftDownloads();
  // Registered now, so that the first click does not wait for it.
  const worker = saveWorker();
  if (manifest.message) {
    const message = show('#e2e-message', box)!;
    message.textContent = manifest.message;
  }
  const list = $('#e2e-file-list', box)!;
  manifest.files.forEach((file, i) => {
    const url = opened.files[i];
    if (!url) return;
    // Bidirectional controls could disguise a name (invoice\u202Efdp.exe): shown, and not saved.
    const name = neutraliseControls(file.name, '_');
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = list.dataset.downloadLabel ?? '';
    button.dataset.e2eDownload = String(i);
    const label = document.createElement('span');
    label.textContent = ` ${neutraliseControls(file.name)} (${formatSize(file.size)}) `;
    item.append(label, button);
    list.append(item);
    button.addEventListener('click', async () => {
      button.disabled = true;
      hide('[data-e2e-problem="download"]', box);
      show('[data-e2e-state="downloading"]', box);
      try {
        const spooled = SPOOL_DOWNLOADS ? await spoolDecryptedDownload('/assets/e2e-download-worker.js', { url, key, passphrase }) : null;
        if (spooled === 'damaged') throw new Error('the file failed authentication');
        if (spooled) {
          saveBlob(spooled, name);
          button.dataset.e2eSaved = 'spooled';
          return;
        }
        const active = await worker;
        const streamed = active ? await saveThroughWorker(active, { url, key, passphrase, name, mimeType: file.type }) : ({ ok: false, started: false } as const);
        if (!streamed.ok && streamed.started) throw new Error(`the download failed: ${streamed.reason}`);
        if (!streamed.ok) await saveWhenDecrypted(url, key, passphrase, name, file.type);
        // How it was saved, for whoever needs to know (the browser tests): streamed or whole.
        button.dataset.e2eSaved = streamed.ok ? 'streamed' : 'whole';
      } catch {
        show('[data-e2e-problem="download"]', box);
      } finally {
        hide('[data-e2e-state="downloading"]', box);
        button.disabled = false;
      }
    });
  });
}

function showSecret(content: OpenedPayload, opened: Opened, key: Uint8Array, passphrase: string | undefined) {
  hide('[data-e2e-state="working"]');
  if (content.content === 'text') {
    show('#e2e-text')!;
    $('#secret')!.textContent = content.text;
  } else showFiles(content.manifest, opened, key, passphrase);
  show('[data-e2e-state="opened"]');
  const remaining = show('#e2e-remaining')!;
  remaining.textContent = opened.remaining;
  const deleteForm = $<HTMLFormElement>('#e2e-delete');
  if (deleteForm && opened.delete_ticket) {
    deleteForm.querySelector<HTMLInputElement>('input[name="exp"]')!.value = opened.delete_ticket.exp;
    deleteForm.querySelector<HTMLInputElement>('input[name="ticket"]')!.value = opened.delete_ticket.ticket;
  }
  if (opened.views_remaining > 0) show('#e2e-delete');
  // Keyboard and screen-reader users: focus moves to what was opened, and it is announced.
  const announce = $('#e2e-announce');
  if (announce) announce.textContent = announce.dataset.decrypted ?? '';
  const shown = content.content === 'text' ? $<HTMLElement>('#secret') : $<HTMLElement>('#e2e-files');
  shown?.focus();
}

/**
 * A push with a passphrase check: the passphrase is asked for before anything is retrieved, and
 * the server is sent its check (never the passphrase). A wrong one spends no view and the server
 * counts it (burn on guessing); the right one opens the push, decrypted with what was typed.
 */
function passphraseFirst(root: HTMLElement, key: Uint8Array) {
  const form = show('#e2e-passphrase') as HTMLFormElement;
  const input = $<HTMLInputElement>('#e2e-passphrase-input', form)!;
  input.focus();
  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    hide('[data-e2e-problem="passphrase"]', form);
    hide('[data-e2e-problem="passphrase-limit"]', form);
    show('[data-e2e-state="working"]');
    const passphrase = input.value;
    const opened = await open(root, await passphraseCheck(key, passphrase));
    busy = false;
    if (opened === 'wrong' || opened === 'limit') {
      hide('[data-e2e-state="working"]');
      show(opened === 'wrong' ? '[data-e2e-problem="passphrase"]' : '[data-e2e-problem="passphrase-limit"]', form);
      input.select();
      return;
    }
    form.hidden = true;
    if (!opened) return;
    try {
      showSecret(await decryptPayload(key, opened.payload, passphrase), opened, key, passphrase);
    } catch {
      problem('failed');
    }
  });
}

async function secretPage(root: HTMLElement) {
  const key = await checkedKey();
  if (!key) return;
  if (root.dataset.passphraseFirst === 'true') return passphraseFirst(root, key);
  show('[data-e2e-state="working"]');
  const opened = await open(root);
  if (!opened || typeof opened === 'string') return;
  const attempt = async (passphrase?: string) => {
    try {
      showSecret(await decryptPayload(key, opened.payload, passphrase), opened, key, passphrase);
      return true;
    } catch (e) {
      if (e instanceof EnvelopeError && passphrase !== undefined && e.code === 'authentication') return false;
      problem('failed');
      return true;
    }
  };
  if (!payloadNeedsPassphrase(opened.payload)) {
    await attempt();
    return;
  }
  // The passphrase is tried here, in the browser, as often as needed: the view is already counted.
  hide('[data-e2e-state="working"]');
  const form = show('#e2e-passphrase') as HTMLFormElement;
  const input = $<HTMLInputElement>('#e2e-passphrase-input', form)!;
  input.focus();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    hide('[data-e2e-problem="passphrase"]', form);
    show('[data-e2e-state="working"]');
    if (await attempt(input.value)) form.hidden = true;
    else {
      hide('[data-e2e-state="working"]');
      show('[data-e2e-problem="passphrase"]', form);
      input.select();
    }
  });
}

const step = document.getElementById('e2e-step');
const page = document.getElementById('e2e');
if (step) void retrievalStep(step);
else if (page) void secretPage(page);
