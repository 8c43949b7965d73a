import { useEffect, useRef, useState } from 'preact/hooks';
import type { PushLimits, VersionDocument } from '../../shared/push-schema';
import { checkConnection, type Check } from '../lib/connection-check';
import type { OptionsEnv } from '../lib/options-env';
import type { PopupEnv } from '../lib/popup-env';
import { fallbackLimits } from '../lib/push-options';
import { t, tAround, uiLanguage } from '../lib/i18n';
import { checkServerUrl, exampleServerUrl, tokenPageUrl } from '../lib/server-address';
import type { PushDefaults, ServerInfo, Settings } from '../lib/settings-storage';
import { CheckField, Notice, NumberField, TextField } from './Field';
import { ProblemNotice } from './ProblemNotice';
import { ConnectAction } from './ConnectAction';
import { serverLocked } from '../lib/managed-policy';

interface Props {
  env: OptionsEnv;
  settings: Settings;
  info: ServerInfo | null;
  onSaved(settings: Settings, info: ServerInfo | null): void;
}

export function describeFeatures(version: VersionDocument): string[] {
  const f = version.features;
  const kinds = [t('feat_kind_text')];
  if (f.pushes.url_pushes.enabled) kinds.push(t('feat_kind_url'));
  if (f.pushes.qr_code_pushes.enabled) kinds.push(t('feat_kind_qr'));
  // Chinese and Japanese list with an ideographic comma.
  const separator = /^(ja|zh)/.test(uiLanguage()) ? '、' : ', ';
  const out = [
    f.pushes.enabled ? t('feat_pushes', kinds.join(separator)) : t('feat_pushes_off'),
    f.anonymous_access ? t('feat_anonymous') : t('feat_token_needed'),
  ];
  if (f.pushes.file_attachments.enabled) {
    out.push(f.pushes.file_attachments.requires_authentication ? t('feat_files_signed_in') : t('feat_files'));
  }
  return out;
}

interface StatusProps {
  check: Check;
  origin: string;
  saved: boolean;
  onAllow(): void;
  serverUrl: string;
  env: PopupEnv;
  retry(): unknown;
}

function ServerStatus({ check, origin, saved, onAllow, ...asked }: StatusProps) {
  if (check.problem) {
    return (
      <ProblemNotice problem={check.problem} {...asked}>
        {check.problem.kind === 'no-access' && (
          <button type="button" onClick={onAllow}>
            {t('allow_access', origin)}
          </button>
        )}
      </ProblemNotice>
    );
  }
  if (!check.info) return null;
  const v = check.info.version;
  return (
    <Notice tone="success">
      <p>
        {t(saved ? 'saved_connected' : 'connected', v.secret_push_version ?? v.application_version, v.api_version, v.edition)}
      </p>
      <ul>
        {describeFeatures(v).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {check.tokenOk === true && <p>{t('token_works')}</p>}
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
  // The popup asks the server when it opens (App); an answer that comes after this view is
  // drawn is shown too, unless the user has asked something since.
  useEffect(() => {
    if (info && info.serverUrl === settings.serverUrl) setStatus((s) => s ?? { info });
  }, [info]);
  const [permissionNote, setPermissionNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'check' | null>(null);
  const [saved, setSaved] = useState(false);
  // The token is about to go to a host it never went to: the user sees which one first.
  const [confirmingToken, setConfirmingToken] = useState(false);
  const firstField = useRef<HTMLInputElement>(null);
  const limits: PushLimits = info?.limits ?? fallbackLimits;
  // Set by the organisation's policy: shown, not editable (the user still connects themselves).
  const locked = serverLocked(settings.policy);
  const fromPolicy = settings.policy?.pushDefaults ?? {};
  const managedHint = (key: keyof PushDefaults) => (key in fromPolicy ? t('managed_default') : undefined);

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
    const inRange = (v: number | undefined, b: { min: number; max: number }, message: 'between_days_or_default' | 'between_views_or_default') =>
      v === undefined || (Number.isInteger(v) && v >= b.min && v <= b.max) ? undefined : t(message, b.min, b.max);
    const d = inRange(defaults.expire_after_days, limits.days, 'between_days_or_default');
    if (d) out.expire_after_days = d;
    const v = inRange(defaults.expire_after_views, limits.views, 'between_views_or_default');
    if (v) out.expire_after_views = v;
    return out;
  }

  /** Asks for host access; must be called synchronously inside a click (a user gesture). */
  function allow(next: Settings, pattern: string, origin: string) {
    void env
      .requestOrigin(pattern)
      .catch(() => false)
      .then(async (allowed) => {
        setPermissionNote(allowed ? null : t('permission_note', origin));
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

  const tokenSentTo = tAround('token_sent_to');
  const httpWarning =
    urlCheck.ok && urlCheck.plainHttpRemote
      ? t('http_warning', urlCheck.host)
      : undefined;

  return (
    <form class="settings" onSubmit={save} noValidate aria-busy={busy !== null}>
      {!settings.serverUrl && (
        <p class="intro">{t('welcome')}</p>
      )}
      <TextField
        id="serverUrl"
        label={t('server_address')}
        type="url"
        inputRef={firstField}
        value={serverUrl}
        placeholder={exampleServerUrl}
        error={errors.serverUrl}
        readOnly={locked}
        hint={locked ? t('managed_address') : httpWarning && <span class="warning">{httpWarning}</span>}
        onChange={(v) => {
          setServerUrl(v);
          edited();
          setErrors(({ serverUrl: _, ...rest }) => rest);
        }}
      />
      <TextField
        id="apiToken"
        label={t('api_token_label')}
        type={showToken ? 'text' : 'password'}
        value={apiToken}
        autoComplete="off"
        hint={
          <>
            {urlCheck.ok ? t('token_kept_for', urlCheck.host) : t('token_kept')}{' '}
            {urlCheck.ok ? (
              <a href={tokenPageUrl(urlCheck.url)} target="_blank" rel="noreferrer">
                {t('get_token')}
              </a>
            ) : (
              t('token_page_hint')
            )}
          </>
        }
        onChange={(v) => {
          setApiToken(v);
          edited();
        }}
      />
      <CheckField id="showToken" label={t('show_token')} checked={showToken} onChange={setShowToken} />
      {/* Connect once the server is confirmed (saved and answering): sign in instead of pasting. */}
      {urlCheck.ok && settings.serverUrl === urlCheck.url && (status?.info ?? (info?.serverUrl === urlCheck.url ? info : null)) && (
        <div class="connect-by-signing-in">
          <p class="hint">{t('connect_hint', urlCheck.host)}</p>
          <ConnectAction
            env={env}
            onConnected={() =>
              void env.loadSettings().then(async (next) => {
                setApiToken(next.apiToken);
                const result = await checkConnection(env, next);
                setStatus(result);
                onSaved(next, result.info ?? null);
              })
            }
          />
        </div>
      )}

      {/* Folded until wanted: the popup is at most 600 px tall, and the first run needs only the address. */}
      <details class="defaults" open={Object.keys(settings.defaults).length > 0 || Boolean(errors.expire_after_days || errors.expire_after_views)}>
        <summary>{t('defaults_summary')}</summary>
        <div class="row">
          <NumberField
            id="default_days"
            label={t('days')}
            value={defaults.expire_after_days}
            min={limits.days.min}
            max={limits.days.max}
            placeholder={String(limits.days.default)}
            hint={managedHint('expire_after_days') ?? t('server_default', limits.days.default, limits.days.min, limits.days.max)}
            disabled={'expire_after_days' in fromPolicy}
            error={errors.expire_after_days}
            onChange={(v) => setDefault('expire_after_days', v)}
          />
          <NumberField
            id="default_views"
            label={t('views')}
            value={defaults.expire_after_views}
            min={limits.views.min}
            max={limits.views.max}
            placeholder={String(limits.views.default)}
            hint={managedHint('expire_after_views') ?? t('server_default', limits.views.default, limits.views.min, limits.views.max)}
            disabled={'expire_after_views' in fromPolicy}
            error={errors.expire_after_views}
            onChange={(v) => setDefault('expire_after_views', v)}
          />
        </div>
        <CheckField
          id="default_retrieval_step"
          label={t('default_retrieval')}
          checked={defaults.retrieval_step ?? limits.retrieval_step}
          disabled={'retrieval_step' in fromPolicy}
          hint={managedHint('retrieval_step')}
          onChange={(v) => setDefault('retrieval_step', v)}
        />
        <CheckField
          id="default_deletable_by_viewer"
          label={t('default_deletable')}
          checked={defaults.deletable_by_viewer ?? limits.deletable_by_viewer}
          disabled={'deletable_by_viewer' in fromPolicy}
          hint={managedHint('deletable_by_viewer')}
          onChange={(v) => setDefault('deletable_by_viewer', v)}
        />
        <CheckField
          id="default_end_to_end"
          label={t('default_end_to_end')}
          checked={defaults.end_to_end !== false}
          disabled={'end_to_end' in fromPolicy}
          hint={managedHint('end_to_end')}
          onChange={(v) => setDefault('end_to_end', v)}
        />
      </details>

      {confirmingToken && urlCheck.ok && (
        <div class="notice confirm" role="alertdialog" aria-labelledby="token-confirm-title">
          <p id="token-confirm-title">
            {tokenSentTo[0]}
            <strong>{urlCheck.host}</strong>
            {tokenSentTo[1]}
          </p>
          {httpWarning && <p class="warning">{httpWarning}</p>}
          <p>{t('token_warning')}</p>
          <div class="actions">
            <button type="submit" class="primary" ref={(el) => el?.focus()}>
              {t('send_token_save', urlCheck.host)}
            </button>
            <button type="button" onClick={() => setConfirmingToken(false)}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
      {permissionNote && urlCheck.ok && (
        <Notice tone="error">
          <p>{permissionNote}</p>
          <button type="button" onClick={allowFromCheck}>
            {t('allow_access', urlCheck.origin)}
          </button>
        </Notice>
      )}
      {saved && !permissionNote && !status?.info && <Notice tone="success">{t('settings_saved')}</Notice>}
      {status && (
        <ServerStatus
          check={status}
          saved={saved}
          origin={urlCheck.ok ? urlCheck.origin : t('the_server')}
          onAllow={allowFromCheck}
          serverUrl={urlCheck.ok ? urlCheck.url : serverUrl}
          env={env}
          retry={check}
        />
      )}

      {!confirmingToken && (
        <div class="actions">
          <button type="submit" class="primary" disabled={busy !== null}>
            {busy === 'save' ? t('saving') : t('save')}
          </button>
          <button type="button" disabled={busy !== null} onClick={check}>
            {busy === 'check' ? t('checking') : t('check_connection')}
          </button>
        </div>
      )}
      {!status?.info && (
        <p class="hint">{t('saving_asks', urlCheck.ok ? urlCheck.origin : t('the_server'))}</p>
      )}
      {/* The server's own page says what the extension keeps and sends (server/http/pages/privacy-extension-page.tsx). */}
      {urlCheck.ok && (
        <p class="hint">
          <a href={`${urlCheck.url}/privacy/extension?lang=${uiLanguage()}`} target="_blank" rel="noreferrer">
            {t('privacy_link')}
          </a>
        </p>
      )}
    </form>
  );
}
