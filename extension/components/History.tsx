import { useEffect, useState } from 'preact/hooks';
import type { AuditEntry, OwnerPushRecord } from '../../shared/push-schema';
import { PAGE_SIZE, type PushApi } from '../lib/api-client';
import { describeError, type Problem } from '../lib/errors';
import type { PopupEnv } from '../lib/popup-env';
import type { RememberedPush } from '../lib/kind-memory';
import { kindLabels } from '../lib/push-options';
import { pushLabel } from '../lib/push-label';
import { tokenToSend, type Settings } from '../lib/settings-storage';
import { Notice } from './Field';

interface Props {
  env: PopupEnv;
  settings: Settings;
  anonymousAllowed?: boolean;
  onOpenSettings(): void;
}

type Which = 'active' | 'expired';

function formatDate(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
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
  const [known, setKnown] = useState<Record<string, RememberedPush>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [reload, setReload] = useState(0);
  const token = tokenToSend(settings);
  const signedIn = Boolean(token);
  const api = env.createApi(settings);

  async function fetchPage(page: number): Promise<OwnerPushRecord[]> {
    const list = await (which === 'active' ? api.active(page) : api.expired(page));
    const recalled = await env.recallKinds(list.map((r) => r.url_token)).catch(() => ({}));
    setKnown((k) => ({ ...k, ...recalled }));
    setHasMore(list.length >= PAGE_SIZE);
    return list;
  }

  // The first page, again after a change (a push expired): as many pages as were shown.
  useEffect(() => {
    if (!signedIn || !settings.serverUrl) return;
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
        if (live) setProblem(describeError(err, settings.serverUrl, signedIn));
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
      setProblem(describeError(err, settings.serverUrl, signedIn));
    } finally {
      setLoadingMore(false);
    }
  }

  if (!settings.serverUrl) {
    return <Notice tone="info">Choose your server in Settings to see your pushes.</Notice>;
  }
  if (!signedIn) {
    return (
      <Notice tone="info">
        <p>
          History lists the pushes of a signed-in user, so it is empty without an API token.
          {anonymousAllowed === false ? '' : ' Pushes made without a token are anonymous: no one can list them, not even you.'}
        </p>
        <button type="button" onClick={onOpenSettings}>
          {settings.apiToken ? 'Confirm your API token in Settings' : 'Add an API token in Settings'}
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
    <section class="history" aria-label="History">
      <div class="segmented" role="group" aria-label="Which pushes">
        <button type="button" aria-pressed={which === 'active'} onClick={() => switchTo('active')}>
          Active
        </button>
        <button type="button" aria-pressed={which === 'expired'} onClick={() => switchTo('expired')}>
          Expired
        </button>
      </div>

      {problem && <Notice tone="error">{problem.message}</Notice>}
      {!problem && items === null && <p role="status">Loading…</p>}
      {items && items.length === 0 && (
        <p role="status">{which === 'active' ? 'No active pushes.' : 'No expired pushes.'}</p>
      )}
      {items && items.length > 0 && (
        <ul class="push-list" aria-label={which === 'active' ? 'Active pushes' : 'Expired pushes'}>
          {items.map((record) => (
            <HistoryItem
              key={record.url_token}
              env={env}
              api={api}
              settings={settings}
              record={record}
              // Records do not carry the kind; the extension remembers it for pushes it made.
              known={known[record.url_token]}
              onChanged={() => setReload((n) => n + 1)}
            />
          ))}
        </ul>
      )}
      {items && hasMore && (
        <button type="button" disabled={loadingMore} onClick={loadMore}>
          {loadingMore ? 'Loading…' : 'Show older pushes'}
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
  known?: RememberedPush;
  onChanged(): void;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function HistoryItem({ env, api, settings, record, known, onChanged }: ItemProps) {
  const [note, setNote] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const title = pushLabel(record.name, known?.kind, known?.hint);
  const labelId = `push-${record.url_token}`;
  const used = Math.max(0, record.expire_after_views - record.views_remaining);

  async function copy() {
    const ok = await env.copy(record.html_url);
    setNote(ok ? { tone: 'success', text: 'Link copied.' } : { tone: 'error', text: 'Could not copy the link.' });
  }

  async function expire() {
    setConfirming(false);
    setBusy(true);
    try {
      await api.expire(record.url_token);
      onChanged();
    } catch (err) {
      setNote({ tone: 'error', text: describeError(err, settings.serverUrl, true).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <li class="push-item" aria-labelledby={labelId}>
      <div class="push-head">
        <strong id={labelId}>{title}</strong>
        <span class="badges">
          {known && <span class="badge">{kindLabels[known.kind] ?? known.kind}</span>}
          <span class={`badge ${record.expired ? 'expired' : 'active'}`}>{record.expired ? 'Expired' : 'Active'}</span>
        </span>
      </div>
      <p class="meta">
        Created <time dateTime={record.created_at}>{formatDate(record.created_at)}</time>
        {record.expired && record.expired_on ? ` · expired ${formatDate(record.expired_on)}` : ''}
      </p>
      <p class="meta">
        {plural(used, 'view', 'views')} of {record.expire_after_views} used
        {record.expired ? '' : ` · ${plural(record.views_remaining, 'view', 'views')} and ${plural(record.days_remaining, 'day', 'days')} left`}
      </p>
      {record.note && <p class="meta">{record.note}</p>}
      {!record.expired && !confirming && (
        <div class="actions">
          <button type="button" onClick={copy} aria-label={`Copy the link of ${title}`}>
            Copy link
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Expire ${title} now`}>
            {busy ? 'Expiring…' : 'Expire now'}
          </button>
        </div>
      )}
      {confirming && (
        <div class="confirm" role="group" aria-label={`Confirm expiring ${title}`}>
          <p>Expire {title} now? Its link stops working for everyone; this cannot be undone.</p>
          <div class="actions">
            <button type="button" class="danger" onClick={expire} ref={(el) => el?.focus()}>
              Yes, expire it
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
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

const auditLabels: Record<string, string> = {
  creation: 'Created',
  view: 'Viewed',
  failed_view: 'Viewed after expiry',
  expire: 'Expired',
  failed_passphrase: 'Wrong passphrase',
  owner_view: 'Viewed by you',
  admin_view: 'Viewed by an administrator',
  edit: 'Edited',
};

/** The audit log of one push, loaded when opened. */
function AuditLog({ api, settings, urlToken, title }: { api: PushApi; settings: Settings; urlToken: string; title: string }) {
  const [logs, setLogs] = useState<AuditEntry[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const load = () => {
    if (logs || problem) return;
    api.audit(urlToken, 1).then(setLogs, (err) => setProblem(describeError(err, settings.serverUrl, true)));
  };

  return (
    <details class="audit" onToggle={(e) => e.currentTarget.open && load()}>
      <summary aria-label={`Audit log of ${title}`}>Audit log</summary>
      {problem && <p class="field-error" role="alert">{problem.message}</p>}
      {!problem && !logs && <p role="status">Loading…</p>}
      {logs && logs.length === 0 && <p>No entries.</p>}
      {logs && logs.length > 0 && (
        <ol>
          {logs.map((entry, i) => (
            <li key={i}>
              <span>{auditLabels[entry.kind] ?? entry.kind}</span> <time dateTime={entry.created_at}>{formatDate(entry.created_at)}</time>
              {entry.ip && <span class="meta"> · {entry.ip}</span>}
              {entry.user_agent && <span class="meta" title={entry.user_agent}> · {entry.user_agent.slice(0, 40)}</span>}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
