/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { RetrievedPush } from '../../../shared/push-schema.js';
import type { DeleteTicket } from '../../pushes/push-service.js';
import { neutraliseBidi } from '../neutralise-bidi.js';
import { CopyButton, CsrfField, Notice, plural } from './components.js';
import { qrDataUri } from './qr-svg.js';

/** Retrieval step: nothing is counted here, so link previewers cannot burn a view. */
export function RetrievalStepPage({ token }: { token: string }) {
  return (
    <section class="card center">
      <h1>Someone sent you a secret</h1>
      <p>
        This link can be opened a limited number of times. Revealing the secret counts as one view, so only reveal it
        when you are ready to use or store it.
      </p>
      <p>
        <a class="button big" id="reveal" href={`/p/${token}`} rel="nofollow noopener">
          Reveal the secret
        </a>
      </p>
    </section>
  );
}

export function PassphrasePage({ token, csrfToken, error }: { token: string; csrfToken: string; error?: string }) {
  return (
    <section class="card">
      <h1>This secret is protected by a passphrase</h1>
      <p class="muted">Enter the passphrase that the sender gave you separately.</p>
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action={`/p/${token}`} class="stack">
        <CsrfField token={csrfToken} />
        <label for="passphrase">Passphrase</label>
        <input
          type="password"
          id="passphrase"
          name="passphrase"
          autocomplete="off"
          required
          autofocus
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'passphrase-error' : undefined}
        />
        <p>
          <button type="submit">Unlock the secret</button>
        </p>
      </form>
    </section>
  );
}

function Remaining({ push }: { push: RetrievedPush }) {
  if (push.views_remaining <= 0) {
    return <p class="muted">That was the last view: this secret has now been deleted from the server.</p>;
  }
  return (
    <p class="muted">
      This secret expires in {plural(push.days_remaining, 'day')} or after {plural(push.views_remaining, 'more view')}, whichever
      comes first.
    </p>
  );
}

export interface SecretPageProps {
  push: RetrievedPush;
  token: string;
  kind: 'text' | 'qr' | 'file' | 'url';
  mayDelete: boolean;
  csrfToken: string;
  /** Proof that this viewer gave the passphrase (a push with one is deleted only with it). */
  deleteTicket?: DeleteTicket | null;
}

export function SecretPage({ push, token, kind, mayDelete, csrfToken, deleteTicket }: SecretPageProps) {
  const payload = push.payload ?? '';
  return (
    <section class="card">
      <h1>Your secret</h1>
      {kind === 'qr' && (
        <div class="qr">
          <img id="qr-image" src={qrDataUri(payload)} alt="QR code of the secret" width={240} height={240} />
        </div>
      )}
      {(kind === 'text' || kind === 'qr' || kind === 'url') && payload !== '' && (
        <>
          <pre class="secret" id="secret" data-secret>
            {payload}
          </pre>
          <div class="row">
            <CopyButton target="secret" label="Copy to clipboard" />
            <button type="button" class="secondary" data-toggle="secret" aria-controls="secret" aria-pressed="false" hidden>
              Hide
            </button>
            <span class="muted" data-copy-status aria-live="polite"></span>
          </div>
        </>
      )}
      {kind === 'file' && (
        <>
          {payload !== '' && (
            <pre class="secret" id="secret" data-secret>
              {payload}
            </pre>
          )}
          {push.files.length > 0 ? (
            <ul class="files">
              {push.files.map((f) => (
                <li>
                  <a href={f.url} download={neutraliseBidi(f.filename, '_')}>
                    {neutraliseBidi(f.filename)}
                  </a>{' '}
                  <span class="muted">({f.content_type})</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No files are attached any more.</p>
          )}
          <p class="muted">Download links work for a limited time: download the files now.</p>
        </>
      )}
      <Remaining push={push} />
      {mayDelete && push.views_remaining > 0 && (
        <form method="post" action={`/p/${token}/delete`} class="delete-form">
          <CsrfField token={csrfToken} />
          {deleteTicket && <input type="hidden" name="exp" value={deleteTicket.exp} />}
          {deleteTicket && <input type="hidden" name="ticket" value={deleteTicket.ticket} />}
          <p>Done with it? Delete it now so that nobody else can open this link.</p>
          <button type="submit" class="danger" id="delete-now">
            Delete this secret now
          </button>
        </form>
      )}
    </section>
  );
}

/** The same page for unknown and expired links: existence is not revealed. */
export function ExpiredPage() {
  return (
    <section class="card center">
      <h1>This secret link has expired</h1>
      <p>
        It was opened the allowed number of times, reached its time limit, was deleted, or never existed. Ask the sender
        for a new link.
      </p>
      <p>
        <a href="/">Send a secret of your own</a>
      </p>
    </section>
  );
}

export function DeletedPage() {
  return (
    <section class="card center">
      <h1>The secret has been deleted</h1>
      <p>Nobody can open this link any more.</p>
      <p>
        <a href="/">Send a secret of your own</a>
      </p>
    </section>
  );
}
