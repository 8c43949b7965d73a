import { useEffect, useState } from 'preact/hooks';
import type { AuditEntry, OwnerPushRecord } from '../../shared/push-schema';
import { PAGE_SIZE, type PushApi } from '../lib/api-client';
import { describeError, type Problem } from '../lib/errors';
import type { PopupEnv } from '../lib/popup-env';
import { kindLabels } from '../lib/push-options';
import type { Settings } from '../lib/settings-storage';
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

/** The signed-in user's pushes, active or expired, 50 a page. */
export function History({ env, settings, anonymousAllowed, onOpenSettings }: Props) {
  const [which, setWhich] = useState<Which>('active');
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<OwnerPushRecord[] | null>(null);
  const [kinds, setKinds] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [reload, setReload] = useState(0);
  const signedIn = Boolean(settings.apiToken);
  const api = env.createApi(settings);

  useEffect(() => {
    if (!signedIn || !settings.serverUrl) return;
    let live = true;
    setItems(null);
    setProblem(null);
    (which === 'active' ? api.active(page) : api.expired(page))
      .then(async (list) => {
        const known = await env.recallKinds(list.map((r) => r.url_token)).catch(() => ({}));
        if (!live) return;
        setKinds(known);
        setItems(list);
      })
      .catch((err) => live && setProblem(describeError(err, settings.serverUrl, signedIn)));
    return () => {
      live = false;
    };
  }, [which, page, reload, settings.serverUrl, settings.apiToken]);

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
          Add an API token in Settings
        </button>
      </Notice>
    );
  }

  const switchTo = (w: Which) => {
    setWhich(w);
    setPage(1);
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
              kind={kinds[record.url_token] ?? (record as { kind?: string }).kind}
              onChanged={() => setReload((n) => n + 1)}
            />
          ))}
        </ul>
      )}

      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          Previous
        </button>
        <span aria-live="polite">Page {page}</span>
        <button type="button" disabled={!items || items.length < PAGE_SIZE} onClick={() => setPage((p) => p + 1)}>
          Next
        </button>
      </nav>
    </section>
  );
}

interface ItemProps {
  env: PopupEnv;
  api: PushApi;
  settings: Settings;
  record: OwnerPushRecord;
  kind?: string;
  onChanged(): void;
}

function HistoryItem({ env, api, settings, record, kind, onChanged }: ItemProps) {
  const [note, setNote] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const title = record.name?.trim() || 'Untitled push';
  const labelId = `push-${record.url_token}`;

  async function copy() {
    const ok = await env.copy(record.html_url);
    setNote(ok ? { tone: 'success', text: 'Link copied.' } : { tone: 'error', text: 'Could not copy the link.' });
  }

  async function expire() {
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
        {kind && <span class="badge">{kindLabels[kind] ?? kind}</span>}
      </div>
      <p class="meta">
        {record.expired
          ? `Expired ${formatDate(record.expired_on)}`
          : `${record.views_remaining} ${record.views_remaining === 1 ? 'view' : 'views'} and ${record.days_remaining} ${
              record.days_remaining === 1 ? 'day' : 'days'
            } left`}
        {' · created '}
        {formatDate(record.created_at)}
      </p>
      {record.note && <p class="meta">{record.note}</p>}
      <div class="actions">
        {!record.expired && (
          <button type="button" onClick={copy} aria-label={`Copy the link of ${title}`}>
            Copy link
          </button>
        )}
        {!record.expired && (
          <button type="button" class="danger" disabled={busy} onClick={expire} aria-label={`Expire ${title} now`}>
            {busy ? 'Expiring…' : 'Expire now'}
          </button>
        )}
      </div>
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
