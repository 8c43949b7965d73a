import { useEffect, useState } from 'preact/hooks';
import type { OwnerRequest, RequestInput } from '../../shared/request-schema';
import type { PushApi } from '../lib/api-client';
import { t, uiLanguage, type MessageKey } from '../lib/i18n';
import { problemOf, type Problem } from '../lib/problem';
import { Notice, NumberField, TextField } from './Field';

interface Props {
  api: PushApi;
  copy(text: string): Promise<boolean>;
}

const stateKeys: Record<OwnerRequest['state'], MessageKey> = { open: 'req_waiting', answered: 'req_answered', expired: 'req_expired', closed: 'req_closed' };

const when = (iso: string) => new Date(iso).toLocaleString(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

/**
 * History's requests: ask someone for a secret (the request link is copied), and the requests
 * made, waiting, answered or expired. An answer opens in a tab as its secret link, which counts
 * a view as any retrieval does.
 */
export function Requests({ api, copy }: Props) {
  const [items, setItems] = useState<OwnerRequest[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [input, setInput] = useState<RequestInput>({});
  const [made, setMade] = useState<{ url: string; copied: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const set = (key: keyof RequestInput) => (value: string | number | undefined) => setInput((i) => ({ ...i, [key]: value }));

  useEffect(() => {
    api.requests().then(setItems, (err) => setProblem(problemOf(err)));
  }, [reload]);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const request = await api.createRequest(input);
      setMade({ url: request.html_url, copied: await copy(request.html_url) });
      setInput({});
      setReload((n) => n + 1);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  }

  const f = problem?.fields ?? {};
  return (
    <>
      <details class="more">
        <summary>{t('req_new')}</summary>
        <form onSubmit={submit} noValidate aria-busy={busy}>
          <TextField id="req_title" label={t('req_title')} value={String(input.title ?? '')} error={f.title} onChange={set('title')} />
          <TextField id="req_message" label={t('req_message')} value={String(input.message ?? '')} error={f.message} onChange={set('message')} />
          <NumberField id="req_days" label={t('req_link_days')} value={input.expire_after_days as number} min={1} max={90} error={f.expire_after_days} onChange={set('expire_after_days')} />
          <div class="row">
            <NumberField id="req_answer_days" label={t('days')} value={input.answer_expire_after_days as number} min={1} max={90} error={f.answer_expire_after_days} onChange={set('answer_expire_after_days')} />
            <NumberField id="req_answer_views" label={t('views')} value={input.answer_expire_after_views as number} min={1} max={100} error={f.answer_expire_after_views} onChange={set('answer_expire_after_views')} />
          </div>
          <button type="submit" class="primary" disabled={busy}>
            {t('req_make')}
          </button>
        </form>
      </details>
      {made && (
        <Notice tone="success">
          <p>{made.copied ? t('req_copied') : t('copy_failed_auto')}</p>
          <p class="meta">{made.url}</p>
        </Notice>
      )}
      {problem && <Notice tone="error">{problem.message}</Notice>}
      {!problem && !items && <p role="status">{t('loading')}</p>}
      {items?.length === 0 && <p role="status">{t('req_none')}</p>}
      {!!items?.length && (
        <ul class="push-list" aria-label={t('requests')}>
          {items.map((r) => (
            <li key={r.url_token} class="push-item request">
              <div class="push-head">
                <strong>{r.title ?? t('req_untitled')}</strong>
                <span class={`badge ${r.state === 'open' ? 'active' : ''}`}>{t(stateKeys[r.state])}</span>
              </div>
              <p class="meta">{when(r.answered_at ?? r.created_at)}</p>
              {r.answer_html_url ? (
                <a href={r.answer_html_url} target="_blank" rel="noreferrer">
                  {t('req_open_answer')}
                </a>
              ) : r.state === 'answered' ? (
                <p class="meta">{t('req_answer_gone')}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
