import { useEffect, useState } from 'preact/hooks';
import type { AuditEntry, OwnerPushRecord } from '../../shared/push-schema';
import type { PushApi } from '../lib/api-client';
import { PAGE_SIZE } from '../lib/page-size';
import { problemOf, type Problem } from '../lib/problem';
import type { PopupEnv } from '../lib/popup-env';
import type { PushTitle } from '../lib/push-label';
import { t, tAround, tn, uiLanguage, type MessageKey } from '../lib/i18n';
import { tokenToSend, type Settings } from '../lib/settings-storage';
import { Notice } from './Field';
import type { RecordWithReceipt } from '../lib/read-receipt';
import { Requests } from './Requests';

interface Props {
  env: PopupEnv;
  settings: Settings;
  anonymousAllowed?: boolean;
  onOpenSettings(): void;
}

type Which = 'active' | 'expired' | 'requests';

function formatDate(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** Newest first, whatever order the server used; a push already listed is not listed twice. */
function merge(list: OwnerPushRecord[], more: OwnerPushRecord[]): OwnerPushRecord[] {
  const seen = new Set(list.map((r) => r.url_token));
  return [...list, ...more.filter((r) => !seen.has(r.url_token))].sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at));
}

/** The signed-in user's pushes, active or expired: the first 50, then more on request. */
export function History({ env, settings, anonymousAllowed, onOpenSettings }: Props) {
  const [which, setWhich] = useState<Which>('active');
  const [pages, setPages] = useState(1);
  const [items, setItems] = useState<OwnerPushRecord[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [titles, setTitles] = useState<Record<string, PushTitle>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [reload, setReload] = useState(0);
  const token = tokenToSend(settings);
  const signedIn = Boolean(token);
  const api = env.createApi(settings);

  async function fetchPage(page: number): Promise<OwnerPushRecord[]> {
    const list = await (which === 'active' ? api.active(page) : api.expired(page));
    const named = await env.pushTitles(list).catch(() => ({}));
    setTitles((k) => ({ ...k, ...named }));
    setHasMore(list.length >= PAGE_SIZE);
    return list;
  }

  // The first page, again after a change (a push expired): as many pages as were shown.
  useEffect(() => {
    if (!signedIn || !settings.serverUrl || which === 'requests') return;
    let live = true;
    setProblem(null);
    void (async () => {
      try {
        let all: OwnerPushRecord[] = [];
        for (let page = 1; page <= pages; page++) {
          const list = await fetchPage(page);
          all = merge(all, list);
          if (list.length < PAGE_SIZE) break;
        }
        if (live) setItems(all);
      } catch (err) {
        if (live) setProblem(problemOf(err));
      }
    })();
    return () => {
      live = false;
    };
  }, [which, reload, settings.serverUrl, token]);

  async function loadMore() {
    setLoadingMore(true);
    setProblem(null);
    try {
      const list = await fetchPage(pages + 1);
      setPages((p) => p + 1);
      setItems((all) => merge(all ?? [], list));
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setLoadingMore(false);
    }
  }

  if (!settings.serverUrl) {
    return <Notice tone="info">{t('history_need_server')}</Notice>;
  }
  if (!signedIn) {
    return (
      <Notice tone="info">
        <p>
          {t('history_need_token')}
          {anonymousAllowed === false ? '' : ` ${t('history_anonymous')}`}
        </p>
        <button type="button" onClick={onOpenSettings}>
          {settings.apiToken ? t('confirm_token_in_settings') : t('add_token_in_settings')}
        </button>
      </Notice>
    );
  }

  const switchTo = (w: Which) => {
    if (w === which) return;
    setWhich(w);
    setPages(1);
    setItems(null);
  };

  return (
    <section class="history" aria-label={t('tab_history')}>
      <div class="segmented" role="group" aria-label={t('which_pushes')}>
        <button type="button" aria-pressed={which === 'active'} onClick={() => switchTo('active')}>
          {t('active')}
        </button>
        <button type="button" aria-pressed={which === 'expired'} onClick={() => switchTo('expired')}>
          {t('expired')}
        </button>
        <button type="button" aria-pressed={which === 'requests'} onClick={() => switchTo('requests')}>
          {t('requests')}
        </button>
      </div>
      {which === 'requests' && <Requests api={api} copy={env.copy} />}

      {problem && <Notice tone="error">{problem.message}</Notice>}
      {!problem && items === null && <p role="status">{t('loading')}</p>}
      {items && items.length === 0 && (
        <p role="status">{which === 'active' ? t('no_active') : t('no_expired')}</p>
      )}
      {items && items.length > 0 && (
        <ul class="push-list" aria-label={which === 'active' ? t('active_pushes') : t('expired_pushes')}>
          {items.map((record) => (
            <HistoryItem
              key={record.url_token}
              env={env}
              api={api}
              settings={settings}
              record={record}
              // Records do not carry the kind; the extension remembers it for pushes it made
              // (records of file pushes carry their file names).
              shown={titles[record.url_token]}
              onChanged={() => setReload((n) => n + 1)}
            />
          ))}
        </ul>
      )}
      {items && hasMore && (
        <button type="button" disabled={loadingMore} onClick={loadMore}>
          {loadingMore ? t('loading') : t('show_older')}
        </button>
      )}
    </section>
  );
}

interface ItemProps {
  env: PopupEnv;
  api: PushApi;
  settings: Settings;
  record: OwnerPushRecord;
  shown?: PushTitle;
  onChanged(): void;
}

function HistoryItem({ env, api, settings, record, shown, onChanged }: ItemProps) {
  const [note, setNote] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const title = shown?.title ?? (record.name?.trim() || t('push_label_none'));
  const labelId = `push-${record.url_token}`;
  const used = Math.max(0, record.expire_after_views - record.views_remaining);
  const [createdBefore, createdAfter] = tAround('created_at');

  async function copy() {
    // An end-to-end push made here: the whole link, with the key the server never had.
    const ok = await env.copy(await env.wholeLink(record));
    setNote(ok ? { tone: 'success', text: t('link_copied') } : { tone: 'error', text: t('copy_link_failed') });
  }

  async function expire() {
    setConfirming(false);
    setBusy(true);
    try {
      await api.expire(record.url_token);
      onChanged();
    } catch (err) {
      setNote({ tone: 'error', text: problemOf(err).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <li class="push-item" aria-labelledby={labelId}>
      <div class="push-head">
        <strong id={labelId}>{title}</strong>
        <span class="badges">
          {shown?.kind && <span class="badge">{shown.kind}</span>}
          <span class={`badge ${record.expired ? 'expired' : 'active'}`}>{record.expired ? t('badge_expired') : t('badge_active')}</span>
        </span>
      </div>
      <p class="meta">
        {createdBefore}
        <time dateTime={record.created_at}>{formatDate(record.created_at)}</time>
        {createdAfter}
        {record.expired && record.expired_on ? ` · ${t('expired_at', formatDate(record.expired_on))}` : ''}
      </p>
      <p class="meta">
        {tn('used_views', used, used, record.expire_after_views)}
        {record.expired
          ? ''
          : ` · ${t('left', tn('left_views', record.views_remaining, record.views_remaining), tn('left_days', record.days_remaining, record.days_remaining))}`}
      </p>
      {(record as RecordWithReceipt).receipt && <p class="meta">{(record as RecordWithReceipt).receipt}</p>}
      {record.note && <p class="meta">{record.note}</p>}
      {!record.expired && !confirming && (
        <div class="actions">
          <button type="button" onClick={copy} aria-label={t('copy_link_of', title)}>
            {t('copy_link')}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)} aria-label={t('expire_now_of', title)}>
            {busy ? t('expiring') : t('expire_now')}
          </button>
        </div>
      )}
      {confirming && (
        <div class="confirm" role="group" aria-label={t('confirm_expiring', title)}>
          <p>{t('expire_confirm', title)}</p>
          <div class="actions">
            <button type="button" class="danger" onClick={expire} ref={(el) => el?.focus()}>
              {t('yes_expire')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('keep_it')}
            </button>
          </div>
        </div>
      )}
      {note && (
        <p class={note.tone === 'error' ? 'field-error' : 'success'} role={note.tone === 'error' ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
      <AuditLog api={api} settings={settings} urlToken={record.url_token} title={title} />
    </li>
  );
}

const auditLabels: Record<string, MessageKey> = {
  creation: 'audit_creation',
  view: 'audit_view',
  failed_view: 'audit_failed_view',
  expire: 'audit_expire',
  failed_passphrase: 'audit_failed_passphrase',
  owner_view: 'audit_owner_view',
  admin_view: 'audit_admin_view',
  edit: 'audit_edit',
};

/** The audit log of one push, loaded when opened. */
function AuditLog({ api, settings, urlToken, title }: { api: PushApi; settings: Settings; urlToken: string; title: string }) {
  const [logs, setLogs] = useState<AuditEntry[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const load = () => {
    if (logs || problem) return;
    api.audit(urlToken, 1).then(setLogs, (err) => setProblem(problemOf(err)));
  };

  return (
    <details class="audit" onToggle={(e) => e.currentTarget.open && load()}>
      <summary aria-label={t('audit_log_of', title)}>{t('audit_log')}</summary>
      {problem && <p class="field-error" role="alert">{problem.message}</p>}
      {!problem && !logs && <p role="status">{t('loading')}</p>}
      {logs && logs.length === 0 && <p>{t('no_entries')}</p>}
      {logs && logs.length > 0 && (
        <ol>
          {logs.map((entry, i) => (
            <li key={i}>
              <span>{auditLabels[entry.kind] ? t(auditLabels[entry.kind]) : entry.kind}</span> <time dateTime={entry.created_at}>{formatDate(entry.created_at)}</time>
              {entry.ip && <span class="meta"> · {entry.ip}</span>}
              {entry.user_agent && <span class="meta" title={entry.user_agent}> · {entry.user_agent.slice(0, 40)}</span>}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
