import { useEffect, useState } from 'preact/hooks';
import type { OwnerRequest, RequestInput } from '../../shared/request-schema';
import type { PushApi } from '../lib/api-client';
import { t, uiLanguage, type MessageKey } from '../lib/i18n';
import { PAGE_SIZE } from '../lib/page-size';
import { problemOf, type Problem } from '../lib/problem';
import { Notice, NumberField, TextField } from './Field';

interface Props {
  api: PushApi;
  copy(text: string): Promise<boolean>;
}

const stateKeys: Record<OwnerRequest['state'], MessageKey> = { open: 'req_waiting', answered: 'req_answered', expired: 'req_expired', closed: 'req_closed' };

const when = (iso: string) => new Date(iso).toLocaleString(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

/** Pages joined, each request once (a request made meanwhile shifts the pages by one). */
const merge = (list: OwnerRequest[], more: OwnerRequest[]) => [...list, ...more.filter((r) => !list.some((x) => x.url_token === r.url_token))];

/**
 * History's requests: ask someone for a secret (the request link is copied), and the requests
 * made, waiting, answered or expired, 50 at a time, then older ones on request. An answer opens
 * in a tab as its secret link, which counts a view as any retrieval does; a waiting request can
 * be closed, after which its link answers "closed".
 */
export function Requests({ api, copy }: Props) {
  const [items, setItems] = useState<OwnerRequest[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [input, setInput] = useState<RequestInput>({});
  const [made, setMade] = useState<{ url: string; copied: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const [pages, setPages] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [closing, setClosing] = useState<string | null>(null);
  const set = (key: keyof RequestInput) => (value: string | number | undefined) => setInput((i) => ({ ...i, [key]: value }));

  /** Pages 1..`upTo`, from the start: after a change the list is what the server lists now. */
  async function load(upTo: number) {
    try {
      let list: OwnerRequest[] = [];
      let page: OwnerRequest[] = [];
      for (let n = 1; n <= upTo; n++) list = merge(list, (page = await api.requests(n)));
      setItems(list);
      setHasMore(page.length >= PAGE_SIZE);
      setPages(upTo);
    } catch (err) {
      setProblem(problemOf(err));
    }
  }

  useEffect(() => {
    void load(pages);
  }, [reload]);

  async function close(r: OwnerRequest) {
    setClosing(r.url_token);
    setProblem(null);
    try {
      const closed = await api.closeRequest(r.url_token);
      setItems((list) => list && list.map((x) => (x.url_token === closed.url_token ? closed : x)));
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setClosing(null);
    }
  }

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
              ) : r.state === 'open' ? (
                <button type="button" class="danger" disabled={closing === r.url_token} onClick={() => close(r)} aria-label={t('req_close_of', r.title ?? t('req_untitled'))}>
                  {t('req_close')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {items && hasMore && (
        <button type="button" disabled={busy} onClick={() => (setBusy(true), load(pages + 1).finally(() => setBusy(false)))}>
          {t('req_older')}
        </button>
      )}
    </>
  );
}
