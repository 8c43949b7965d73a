import { useEffect, useRef, useState } from 'preact/hooks';
import type { PushLimits, VersionDocument } from '../../shared/push-schema';
import { checkConnection, type Check } from '../lib/connection-check';
import type { PopupEnv } from '../lib/popup-env';
import { fallbackLimits } from '../lib/push-options';
import { checkServerUrl, tokenPageUrl } from '../lib/server-address';
import type { PushDefaults, ServerInfo, Settings } from '../lib/settings-storage';
import { CheckField, Notice, NumberField, TextField } from './Field';

interface Props {
  env: PopupEnv;
  settings: Settings;
  info: ServerInfo | null;
  onSaved(settings: Settings, info: ServerInfo | null): void;
}

export function describeFeatures(version: VersionDocument): string[] {
  const f = version.features;
  const kinds = ['text'];
  if (f.pushes.url_pushes.enabled) kinds.push('URL');
  if (f.pushes.qr_code_pushes.enabled) kinds.push('QR code');
  const out = [
    f.pushes.enabled ? `Pushes: ${kinds.join(', ')}` : 'Pushes are switched off',
    f.anonymous_access ? 'Pushes without an API token are allowed' : 'An API token is needed for everything',
  ];
  if (f.pushes.file_attachments.enabled) {
    out.push(`File attachments (on the web page${f.pushes.file_attachments.requires_authentication ? ', signed in' : ''})`);
  }
  return out;
}

function ServerStatus({ check, origin, saved, onAllow }: { check: Check; origin: string; saved: boolean; onAllow(): void }) {
  if (check.problem) {
    return (
      <Notice tone="error">
        <p>{check.problem.message}</p>
        {check.problem.kind === 'no-access' && (
          <button type="button" onClick={onAllow}>
            Allow access to {origin}
          </button>
        )}
      </Notice>
    );
  }
  if (!check.info) return null;
  const v = check.info.version;
  return (
    <Notice tone="success">
      <p>
        {saved ? 'Saved. ' : ''}Connected to Secret Push {v.secret_push_version ?? v.application_version} (API {v.api_version}, {v.edition}).
      </p>
      <ul>
        {describeFeatures(v).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {check.tokenOk === true && <p>Your API token works.</p>}
      {check.tokenOk === false && check.tokenProblem && <p class="field-error">{check.tokenProblem.message}</p>}
    </Notice>
  );
}

export function SettingsView({ env, settings, info, onSaved }: Props) {
  const [serverUrl, setServerUrl] = useState(settings.serverUrl);
  const [apiToken, setApiToken] = useState(settings.apiToken);
  const [showToken, setShowToken] = useState(false);
  const [defaults, setDefaults] = useState<PushDefaults>(settings.defaults);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Check | null>(info ? { info } : null);
  const [permissionNote, setPermissionNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'check' | null>(null);
  const [saved, setSaved] = useState(false);
  // The token is about to go to a host it never went to: the user sees which one first.
  const [confirmingToken, setConfirmingToken] = useState(false);
  const firstField = useRef<HTMLInputElement>(null);
  const limits: PushLimits = info?.limits ?? fallbackLimits;

  useEffect(() => {
    firstField.current?.focus();
  }, []);

  const urlCheck = checkServerUrl(serverUrl);
  const edited = () => {
    setSaved(false);
    setStatus(null);
    setPermissionNote(null);
    setConfirmingToken(false);
  };
  const setDefault = <K extends keyof PushDefaults>(key: K, value: PushDefaults[K]) => {
    setSaved(false);
    setDefaults((d) => {
      const next = { ...d };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  function validate(): Record<string, string> {
    const out: Record<string, string> = {};
    if (!urlCheck.ok) out.serverUrl = urlCheck.error;
    const inRange = (v: number | undefined, b: { min: number; max: number }, unit: string) =>
      v === undefined || (Number.isInteger(v) && v >= b.min && v <= b.max) ? undefined : `Choose between ${b.min} and ${b.max} ${unit}, or leave it empty for the server's default.`;
    const d = inRange(defaults.expire_after_days, limits.days, 'days');
    if (d) out.expire_after_days = d;
    const v = inRange(defaults.expire_after_views, limits.views, 'views');
    if (v) out.expire_after_views = v;
    return out;
  }

  /** Asks for host access; must be called synchronously inside a click (a user gesture). */
  function allow(next: Settings, pattern: string, origin: string) {
    void env
      .requestOrigin(pattern)
      .catch(() => false)
      .then(async (allowed) => {
        setPermissionNote(allowed ? null : `Secret Push may not reach ${origin} until you allow it.`);
        if (!allowed) return;
        setBusy('check');
        const check = await checkConnection(env, next);
        if (check.info) await env.saveServerInfo(check.info);
        setStatus(check);
        setBusy(null);
        onSaved(next, check.info ?? null);
      });
  }

  function save(e: Event) {
    e.preventDefault();
    const problems = validate();
    setErrors(problems);
    if (Object.keys(problems).length > 0 || !urlCheck.ok) return;
    const token = apiToken.trim();
    if (token && settings.tokenOrigin !== urlCheck.origin && !confirmingToken) {
      setConfirmingToken(true);
      return;
    }
    const next: Settings = { serverUrl: urlCheck.url, apiToken: token, defaults };
    if (token) next.tokenOrigin = urlCheck.origin;
    else if (settings.tokenOrigin) next.tokenOrigin = settings.tokenOrigin;
    // Saved first, and issued before anything can close the popup: Chromium and Firefox may close
    // it the moment the permission prompt appears. The background finishes the set-up when the
    // permission arrives (entrypoints/background.ts), whether or not the popup is still open.
    const saving = env.saveSettings(next);
    setConfirmingToken(false);
    setServerUrl(next.serverUrl);
    setSaved(false);
    setStatus(null);
    setBusy('save');
    void saving.then(() => {
      setSaved(true);
      setBusy(null);
      onSaved(next, null);
    });
    // Still inside the click: browsers show the permission prompt only during a user gesture.
    allow(next, urlCheck.originPattern, urlCheck.origin);
  }

  function allowFromCheck() {
    if (!urlCheck.ok) return;
    allow({ ...settings, serverUrl: urlCheck.url }, urlCheck.originPattern, urlCheck.origin);
  }

  async function check() {
    if (!urlCheck.ok) {
      setErrors({ serverUrl: urlCheck.error });
      return;
    }
    setBusy('check');
    setStatus(null);
    const result = await checkConnection(env, { ...settings, serverUrl: urlCheck.url, apiToken: apiToken.trim(), defaults });
    setStatus(result);
    setBusy(null);
  }

  const httpWarning =
    urlCheck.ok && urlCheck.plainHttpRemote
      ? `http:// is not encrypted: your API token and your secrets can be read on the way to ${urlCheck.host}. Use https:// if the server offers it.`
      : undefined;

  return (
    <form class="settings" onSubmit={save} noValidate aria-busy={busy !== null}>
      {!settings.serverUrl && (
        <p class="intro">
          Welcome! Enter the address of your Secret Push server to start. The API token is optional: add it now or later.
        </p>
      )}
      <TextField
        id="serverUrl"
        label="Server address"
        type="url"
        inputRef={firstField}
        value={serverUrl}
        placeholder="https://push.example.org"
        error={errors.serverUrl}
        hint={httpWarning && <span class="warning">{httpWarning}</span>}
        onChange={(v) => {
          setServerUrl(v);
          edited();
          setErrors(({ serverUrl: _, ...rest }) => rest);
        }}
      />
      <TextField
        id="apiToken"
        label="API token (optional: needed for History)"
        type={showToken ? 'text' : 'password'}
        value={apiToken}
        autoComplete="off"
        hint={
          <>
            Kept on this device only, never synced{urlCheck.ok ? `, sent only to ${urlCheck.host}` : ''}.{' '}
            {urlCheck.ok ? (
              <a href={tokenPageUrl(urlCheck.url)} target="_blank" rel="noreferrer">
                Get a token from your server
              </a>
            ) : (
              'Your server shows it at /users/token.'
            )}
          </>
        }
        onChange={(v) => {
          setApiToken(v);
          edited();
        }}
      />
      <CheckField id="showToken" label="Show the token" checked={showToken} onChange={setShowToken} />

      {/* Folded until wanted: the popup is at most 600 px tall, and the first run needs only the address. */}
      <details class="defaults" open={Object.keys(settings.defaults).length > 0 || Boolean(errors.expire_after_days || errors.expire_after_views)}>
        <summary>Default options of new pushes</summary>
        <div class="row">
          <NumberField
            id="default_days"
            label="Days"
            value={defaults.expire_after_days}
            min={limits.days.min}
            max={limits.days.max}
            placeholder={String(limits.days.default)}
            hint={`Server default ${limits.days.default} (${limits.days.min}–${limits.days.max})`}
            error={errors.expire_after_days}
            onChange={(v) => setDefault('expire_after_days', v)}
          />
          <NumberField
            id="default_views"
            label="Views"
            value={defaults.expire_after_views}
            min={limits.views.min}
            max={limits.views.max}
            placeholder={String(limits.views.default)}
            hint={`Server default ${limits.views.default} (${limits.views.min}–${limits.views.max})`}
            error={errors.expire_after_views}
            onChange={(v) => setDefault('expire_after_views', v)}
          />
        </div>
        <CheckField
          id="default_retrieval_step"
          label="Ask the recipient to click before revealing"
          checked={defaults.retrieval_step ?? limits.retrieval_step}
          onChange={(v) => setDefault('retrieval_step', v)}
        />
        <CheckField
          id="default_deletable_by_viewer"
          label="Let the recipient delete the push"
          checked={defaults.deletable_by_viewer ?? limits.deletable_by_viewer}
          onChange={(v) => setDefault('deletable_by_viewer', v)}
        />
      </details>

      {confirmingToken && urlCheck.ok && (
        <div class="notice confirm" role="alertdialog" aria-labelledby="token-confirm-title">
          <p id="token-confirm-title">
            Your API token will be sent to <strong>{urlCheck.host}</strong>.
          </p>
          {httpWarning && <p class="warning">{httpWarning}</p>}
          <p>Anyone who runs that server can act as you there. Send it only to your own Secret Push server.</p>
          <div class="actions">
            <button type="submit" class="primary" ref={(el) => el?.focus()}>
              Send the token to {urlCheck.host} and save
            </button>
            <button type="button" onClick={() => setConfirmingToken(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {permissionNote && urlCheck.ok && (
        <Notice tone="error">
          <p>{permissionNote}</p>
          <button type="button" onClick={allowFromCheck}>
            Allow access to {urlCheck.origin}
          </button>
        </Notice>
      )}
      {saved && !permissionNote && !status?.info && <Notice tone="success">Settings saved.</Notice>}
      {status && <ServerStatus check={status} saved={saved} origin={urlCheck.ok ? urlCheck.origin : 'the server'} onAllow={allowFromCheck} />}

      {!confirmingToken && (
        <div class="actions">
          <button type="submit" class="primary" disabled={busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
          <button type="button" disabled={busy !== null} onClick={check}>
            {busy === 'check' ? 'Checking…' : 'Check connection'}
          </button>
        </div>
      )}
      {!status?.info && (
        <p class="hint">
          Saving asks your browser for access to {urlCheck.ok ? urlCheck.origin : 'the server'} only, so that Secret Push can
          talk to it.
        </p>
      )}
    </form>
  );
}
