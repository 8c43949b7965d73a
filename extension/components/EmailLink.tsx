import { useState } from 'preact/hooks';
import type { EmailLinkInput } from '../../shared/email-link-schema';
import { t, tn } from '../lib/i18n';
import { problemOf, type Problem } from '../lib/problem';
import { Notice, TextField } from './Field';

interface Props {
  /** The push's whole link: for an end-to-end push its key (after `#`) goes into the mail. */
  link: string;
  urlToken: string;
  send(input: EmailLinkInput): Promise<{ sent: number }>;
}

/** "E-mail the link…" under a new push's link (servers with e-mail set up, signed-in users). */
export function EmailLink({ link, urlToken, send }: Props) {
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const key = link.split('#')[1];

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      setSent((await send({ url_token: urlToken, notify_emails: to, notify_note: note || undefined, link_key: key })).sent);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <details class="more">
      <summary>{t('email_link')}</summary>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <TextField id="notify_emails" label={t('email_to')} type="email" autoComplete="email" value={to} error={problem?.fields.notify_emails} onChange={setTo} />
        <TextField id="notify_note" label={t('email_note')} value={note} error={problem?.fields.notify_note} onChange={setNote} />
        {key && <p class="hint">{t('email_key_note')}</p>}
        {problem && !problem.fields.notify_emails && !problem.fields.notify_note && <Notice tone="error">{problem.message}</Notice>}
        {sent > 0 && <p class="success" role="status">{tn('email_sent', sent, sent)}</p>}
        <button type="submit" disabled={busy || !to.trim()}>
          {busy ? t('email_sending') : t('email_send')}
        </button>
      </form>
    </details>
  );
}
