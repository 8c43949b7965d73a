/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { PushRecordBase } from '../../../shared/push-schema.js';
import { CopyButton, Notice, plural } from './components.js';
import { qrSvg } from './qr-svg.js';

/**
 * The sender's view of a push (Password Pusher's `/p/<token>/preview`): the secret link with a
 * copy button and a QR code of it. It never shows the payload and counts no view.
 */
export function PreviewPage({ push }: { push: PushRecordBase }) {
  return (
    <section class="card">
      <h1>Your secret link</h1>
      {push.expired && <Notice kind="error">This secret has expired: the link no longer reveals anything.</Notice>}
      <p>Send this link to the recipient:</p>
      <p class="link-box">
        <code id="secret-link">{push.html_url}</code>
      </p>
      <div class="row">
        <CopyButton target="secret-link" label="Copy the link" />
        <span class="muted" data-copy-status aria-live="polite"></span>
      </div>
      {/* Generated markup of our own (modules of the link, no text of it), never user input. */}
      <div class="qr" dangerouslySetInnerHTML={{ __html: qrSvg(push.html_url, 'QR code of the secret link') }} />
      <p class="muted">Scan the code to open the secret link on a phone. This page does not reveal the secret.</p>
      {!push.expired && (
        <p class="muted">
          It expires in {plural(push.days_remaining, 'day')} or after {plural(push.views_remaining, 'more view')}, whichever comes
          first.{push.passphrase ? ' Send the passphrase by another channel.' : ''}
        </p>
      )}
      <p>
        <a href="/">Send another secret</a>
      </p>
    </section>
  );
}
