import { useState } from 'preact/hooks';
import type { PushLimits, VersionDocument } from '../../shared/push-schema';
import { describeError, type Problem } from '../lib/errors';
import type { PopupEnv } from '../lib/popup-env';
import { fallbackLimits } from '../lib/push-options';
import { checkServerUrl, tokenPageUrl, type PushDefaults, type ServerInfo, type Settings } from '../lib/settings-storage';
import { CheckField, Notice, NumberField, TextField } from './Field';

interface Props {
  env: PopupEnv;
  settings: Settings;
  info: ServerInfo | null;
  onSaved(settings: Settings, info: ServerInfo | null): void;
}

interface Check {
  info?: ServerInfo;
  tokenOk?: boolean;
  problem?: Problem;
  tokenProblem?: Problem;
}

/** Asks the server about itself (and whether the token works); never throws. */
export async function checkConnection(env: PopupEnv, settings: Settings): Promise<Check> {
  const api = env.createApi(settings);
  let info: ServerInfo;
  try {
    const [version, limits] = await Promise.all([api.version(), api.limits()]);
    info = { serverUrl: settings.serverUrl, version, limits, checkedAt: new Date().toISOString() };
  } catch (err) {
    return { problem: describeError(err, settings.serverUrl, Boolean(settings.apiToken)) };
  }
  if (!settings.apiToken) return { info };
  try {
    await api.active(1);
    return { info, tokenOk: true };
  } catch (err) {
    return { info, tokenOk: false, tokenProblem: describeError(err, settings.serverUrl, true) };
  }
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

function ServerStatus({ check }: { check: Check }) {
  if (check.problem) return <Notice tone="error">{check.problem.message}</Notice>;
  if (!check.info) return null;
  const v = check.info.version;
  return (
    <Notice tone="success">
      <p>
        Connected to Secret Push {v.secret_push_version ?? v.application_version} (API {v.api_version}, {v.edition}).
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
  const limits: PushLimits = info?.limits ?? fallbackLimits;

  const urlCheck = checkServerUrl(serverUrl);
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

  function save(e: Event) {
    e.preventDefault();
    const problems = validate();
    setErrors(problems);
    if (Object.keys(problems).length > 0 || !urlCheck.ok) return;
    // Ask for the host permission first, synchronously inside the click: browsers only show
    // the prompt during a user gesture, and an earlier `await` would end it.
    const granted = env.requestOrigin(urlCheck.originPattern).catch(() => false);
    // Saved at once too: Firefox closes the popup while its permission prompt is open, so
    // nothing after the prompt may be needed to keep the settings.
    const next: Settings = { serverUrl: urlCheck.url, apiToken: apiToken.trim(), defaults };
    const saving = env.saveSettings(next);
    void (async () => {
      setBusy('save');
      setSaved(false);
      setStatus(null);
      const [allowed] = await Promise.all([granted, saving]);
      setPermissionNote(
        allowed
          ? null
          : `Secret Push may not reach ${urlCheck.origin} until you allow it: save again and choose "Allow".`,
      );
      setServerUrl(next.serverUrl);
      setSaved(true);
      const check = allowed ? await checkConnection(env, next) : {};
      if (check.info) await env.saveServerInfo(check.info);
      setStatus(allowed ? check : null);
      setBusy(null);
      onSaved(next, check.info ?? null);
    })();
  }

  async function check() {
    if (!urlCheck.ok) {
      setErrors({ serverUrl: urlCheck.error });
      return;
    }
    setBusy('check');
    setStatus(null);
    const result = await checkConnection(env, { serverUrl: urlCheck.url, apiToken: apiToken.trim(), defaults });
    setStatus(result);
    setBusy(null);
  }

  return (
    <form class="settings" onSubmit={save} noValidate aria-busy={busy !== null}>
      <TextField
        id="serverUrl"
        label="Server address"
        type="url"
        value={serverUrl}
        placeholder="https://push.example.org"
        error={errors.serverUrl}
        onChange={(v) => {
          setServerUrl(v);
          setSaved(false);
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
            Kept on this device only, never synced.{' '}
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
          setSaved(false);
        }}
      />
      <CheckField id="showToken" label="Show the token" checked={showToken} onChange={setShowToken} />

      <fieldset>
        <legend>Default options of new pushes</legend>
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
      </fieldset>

      {permissionNote && <Notice tone="error">{permissionNote}</Notice>}
      {saved && !permissionNote && <Notice tone="success">Settings saved.</Notice>}
      {status && <ServerStatus check={status} />}

      <div class="actions">
        <button type="submit" class="primary" disabled={busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" disabled={busy !== null} onClick={check}>
          {busy === 'check' ? 'Checking…' : 'Check connection'}
        </button>
      </div>
      <p class="hint">
        Saving asks your browser for access to {urlCheck.ok ? urlCheck.origin : 'the server'} only, so that Secret Push can
        talk to it.
      </p>
    </form>
  );
}
