import { useEffect, useRef, useState } from 'preact/hooks';
import type { OwnerPushRecord, PushLimits, VersionDocument } from '../../shared/push-schema';
import { problemOf, type Problem } from '../lib/problem';
import type { PopupEnv, TargetTab } from '../lib/popup-env';
import {
  buildPushInput,
  checkPush,
  endToEndWanted,
  fallbackLimits,
  filesOffered,
  initialOptions,
  offeredKinds,
  type ExtensionKind,
  type PushOptions,
} from '../lib/push-options';
import { t } from '../lib/i18n';
import { tokenToSend, type Settings } from '../lib/settings-storage';
import { CheckField, FieldError, NumberField, Notice, TextField } from './Field';
import { Lazy } from './Lazy';

// Loaded when needed: the first paint is the form alone (scripts/bundle-size.ts).
const loadResult = () => import('./lazy-views').then((m) => m.PushResult);
const loadGenerator = () => import('./lazy-views').then((m) => m.Generator);

interface Props {
  env: PopupEnv;
  settings: Settings;
  limits?: PushLimits;
  version?: VersionDocument;
  /** Focus the secret field on mount (when the popup opens). */
  autoFocus?: boolean;
  onOpenSettings(): void;
  /** A push went through: problems about reaching the server are over. */
  onServerOk?(): void;
}

export function PushForm({ env, settings, limits: serverLimits, version, autoFocus = true, onOpenSettings, onServerOk }: Props) {
  const limits = serverLimits ?? fallbackLimits;
  const kinds: ExtensionKind[] = [...offeredKinds(version, settings.policy), ...(filesOffered(version, Boolean(settings.apiToken)) ? (['file'] as const) : [])];
  const [kind, setKind] = useState<ExtensionKind>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fromSelection, setFromSelection] = useState(false);
  const [address, setAddress] = useState('');
  const [tab, setTab] = useState<TargetTab | null>(null);
  const [options, setOptions] = useState<PushOptions>(() => initialOptions(settings.defaults, limits));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ record: OwnerPushRecord; kind: ExtensionKind; copied: boolean } | null>(null);
  const touched = useRef({ text: false, options: false });
  const textArea = useRef<HTMLTextAreaElement>(null);
  const draftLoaded = useRef(false);
  /** The text is a generated secret: never kept in the draft, gone after the push. */
  const generated = useRef(false);
  const [generatorOpen, setGeneratorOpen] = useState(false);

  // The draft left when the popup was closed, then the target tab and its selection: the
  // selection fills the text unless the user already typed (now or in the draft).
  useEffect(() => {
    let live = true;
    void (async () => {
      const draft = await env.loadDraft().catch(() => null);
      if (!live) return;
      if (draft) {
        if (draft.kind === 'text' || draft.kind === 'url' || draft.kind === 'qr') setKind(draft.kind);
        if (draft.text) {
          setText(draft.text);
          touched.current.text = true;
        }
        if (draft.address) setAddress(draft.address);
        if (draft.name || draft.note) setOptions((o) => ({ ...o, name: draft.name ?? '', note: draft.note ?? '' }));
      }
      draftLoaded.current = true;
      const target = await env.targetTab();
      if (!live || !target) return;
      setTab(target);
      if (target.url && /^https?:/i.test(target.url) && !draft?.address) setAddress(target.url);
      const selection = await env.readSelection(target.id);
      if (live && selection.trim() && !touched.current.text) {
        setText(selection);
        setFromSelection(true);
      }
    })();
    return () => {
      live = false;
    };
  }, [env]);

  // Server limits arrive after the first paint: re-derive the options unless the user changed them.
  useEffect(() => {
    if (!touched.current.options) setOptions(initialOptions(settings.defaults, limits));
  }, [settings.defaults, limits]);

  // A kind the server does not offer is never selected.
  useEffect(() => {
    if (kinds.length > 0 && !kinds.includes(kind)) setKind(kinds[0]);
  }, [kinds.join(','), kind]);

  useEffect(() => {
    if (autoFocus) textArea.current?.focus();
  }, []);

  // Keep what the user typed while the popup is closed (memory only; cleared by a push).
  useEffect(() => {
    if (!draftLoaded.current || result) return;
    const empty = !text && !options.name && !options.note && (kind === 'text' || !touched.current.text);
    void env.saveDraft(
      empty && kind === 'text' ? null : { kind, text: touched.current.text && !generated.current ? text : '', address: kind === 'text' ? undefined : address, name: options.name, note: options.note },
    );
  }, [kind, text, address, options.name, options.note]);

  /** The message of a field goes as soon as the field is changed. */
  const clearError = (key: string) => setFieldErrors(({ [key]: _, ...rest }) => rest);
  const setOption = <K extends keyof PushOptions>(key: K, value: PushOptions[K]) => {
    touched.current.options = true;
    setOptions((o) => ({ ...o, [key]: value }));
    clearError(key);
  };

  /** `secret`: a generated value pushed at once ("Generate and push"), before the state has it. */
  async function submit(e?: Event, secret?: string) {
    e?.preventDefault();
    if (busy) return;
    const payload = secret ?? (kind === 'text' ? text : address.trim());
    const problems = checkPush(kind, payload, options, limits);
    if (kind === 'file' && !file) problems.files = t('check_choose_file');
    setFieldErrors(problems);
    setProblem(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const endToEnd = endToEndWanted(kind, settings.defaults, limits);
      const record =
        kind === 'file' && file
          ? await env.sendFilePush(settings, buildPushInput(kind, '', options), file, endToEnd)
          : await env.sendPush(settings, buildPushInput(kind, payload, options), endToEnd);
      // Copy at once: the popup may be closed the moment the user looks away.
      const copied = await env.copy(record.html_url);
      // A file's name stays in this browser only (the server has it encrypted, or not at all).
      // The hint is made by the background from the page (text) or the URL pushed, never the secret.
      await Promise.all([
        env.rememberKind(record.url_token, kind, kind === 'file' ? file?.name : undefined, kind === 'text' ? tab?.url : payload).catch(() => undefined),
        env.saveDraft(null),
      ]);
      onServerOk?.();
      setResult({ record, kind, copied });
    } catch (err) {
      const p = problemOf(err);
      setProblem(p);
      setFieldErrors(p.fields);
    } finally {
      setBusy(false);
    }
  }

  function another() {
    setResult(null);
    setText('');
    generated.current = false;
    setFile(null);
    setFromSelection(false);
    touched.current = { text: false, options: false };
    setOptions(initialOptions(settings.defaults, limits));
  }

  // Errors of fields under "More options" open it; fixing them must not close it under the
  // user's hands (a controlled `open` did, as soon as the message went).
  const formFieldErrors = Object.keys(fieldErrors).filter((f) => !['payload', 'kind', 'expire_after_days', 'expire_after_views'].includes(f));
  const more = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (formFieldErrors.length > 0 && more.current) more.current.open = true;
  }, [formFieldErrors.join()]);

  if (!settings.serverUrl) {
    return (
      <Notice tone="info">
        <p>{t('choose_server_first')}</p>
        <button type="button" onClick={onOpenSettings}>
          {t('open_settings')}
        </button>
      </Notice>
    );
  }
  if (version && kinds.length === 0) {
    return <Notice tone="error">{t('no_pushes_accepted')}</Notice>;
  }
  // Part of the first chunk: without its QR encoder (drawn by the background) it is 0.6 KB.
  if (result) {
    const emailLink = limits.email_links && tokenToSend(settings) ? env.createApi(settings).emailLink : undefined;
    return <Lazy load={loadResult} props={{ ...result, env, emailLink, onAnother: another }} />;
  }
  const useGenerated = (value: string) => {
    generated.current = touched.current.text = true;
    setText(value);
    clearError('payload');
  };

  return (
    <form class="push-form" onSubmit={submit} noValidate aria-busy={busy}>
      <fieldset class="kinds" aria-describedby={fieldErrors.kind ? 'kind-error' : undefined}>
        <legend>{t('what_to_push')}</legend>
        {kinds.map((k) => (
          <label key={k} class={`kind ${kind === k ? 'selected' : ''}`}>
            <input
              type="radio"
              name="kind"
              value={k}
              checked={kind === k}
              onChange={() => {
                setKind(k);
                setFieldErrors({});
              }}
            />
            {t(`source_${k}`)}
          </label>
        ))}
        <FieldError id="kind-error" message={fieldErrors.kind} />
      </fieldset>

      {kind === 'text' ? (
        <div class="field">
          <label for="payload">{fromSelection ? t('secret_from_selection') : t('secret_label')}</label>
          <textarea
            id="payload"
            ref={textArea}
            rows={4}
            value={text}
            placeholder={t('secret_placeholder')}
            aria-invalid={fieldErrors.payload ? true : undefined}
            aria-describedby={fieldErrors.payload ? 'payload-error' : undefined}
            onInput={(e) => {
              touched.current.text = true;
              generated.current = false;
              setText(e.currentTarget.value);
              clearError('payload');
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
            }}
          />
          <FieldError id="payload-error" message={fieldErrors.payload} />
          <button type="button" class="link" aria-expanded={generatorOpen} onClick={() => setGeneratorOpen(!generatorOpen)}>
            {t('gen_open')}
          </button>
          {generatorOpen && (
            <Lazy
              load={loadGenerator}
              props={{
                generate: env.generate,
                busy,
                onUse: useGenerated,
                onPush: (value: string) => {
                  useGenerated(value);
                  void submit(undefined, value);
                },
              }}
            />
          )}
        </div>
      ) : kind === 'file' ? (
        <div class="field">
          <label for="file">{t('file_label')}</label>
          <input
            type="file"
            id="file"
            aria-invalid={fieldErrors.files ? true : undefined}
            aria-describedby={fieldErrors.files ? 'files-error' : undefined}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              clearError('files');
            }}
          />
          <FieldError id="files-error" message={fieldErrors.files} />
        </div>
      ) : (
        <TextField
          id="payload"
          label={kind === 'url' ? t('address_label') : t('qr_text_label')}
          type={kind === 'url' ? 'url' : 'text'}
          value={address}
          error={fieldErrors.payload}
          hint={tab ? undefined : t('no_page_hint')}
          onChange={(v) => {
            setAddress(v);
            clearError('payload');
          }}
        />
      )}

      <div class="row">
        <NumberField
          id="expire_after_days"
          label={t('days')}
          value={options.expire_after_days}
          min={limits.days.min}
          max={limits.days.max}
          error={fieldErrors.expire_after_days}
          onChange={(v) => setOption('expire_after_days', v ?? Number.NaN)}
        />
        <NumberField
          id="expire_after_views"
          label={t('views')}
          value={options.expire_after_views}
          min={limits.views.min}
          max={limits.views.max}
          error={fieldErrors.expire_after_views}
          onChange={(v) => setOption('expire_after_views', v ?? Number.NaN)}
        />
      </div>

      <details class="more" ref={more}>
        <summary>{t('more_options')}</summary>
        <TextField
          id="passphrase"
          label={t('passphrase_label')}
          type="password"
          autoComplete="new-password"
          value={options.passphrase}
          error={fieldErrors.passphrase}
          onChange={(v) => setOption('passphrase', v)}
        />
        <CheckField
          id="retrieval_step"
          label={t('retrieval_step_label')}
          checked={options.retrieval_step}
          onChange={(v) => setOption('retrieval_step', v)}
        />
        <CheckField
          id="deletable_by_viewer"
          label={t('deletable_label')}
          checked={kind === 'url' ? false : options.deletable_by_viewer}
          disabled={kind === 'url'}
          hint={kind === 'url' ? t('url_not_deletable') : undefined}
          onChange={(v) => setOption('deletable_by_viewer', v)}
        />
        {limits.scheduled_release && (
          <TextField
            id="not_before"
            label={t('opens_from')}
            type="datetime-local"
            value={options.not_before}
            error={fieldErrors.not_before}
            hint={t('opens_from_hint')}
            onChange={(v) => setOption('not_before', v)}
          />
        )}
        <TextField
          id="name"
          label={t('name_label')}
          value={options.name}
          error={fieldErrors.name}
          onChange={(v) => setOption('name', v)}
        />
        <TextField
          id="note"
          label={t('note_label')}
          value={options.note}
          error={fieldErrors.note}
          onChange={(v) => setOption('note', v)}
        />
      </details>

      {problem && <Notice tone="error">{problem.message}</Notice>}
      {problem?.kind === 'unauthorized' && (
        <button type="button" class="link" onClick={onOpenSettings}>
          {t('open_settings')}
        </button>
      )}

      <button type="submit" class="primary" disabled={busy}>
        {busy ? t('pushing') : t(`push_button_${kind}`)}
      </button>
    </form>
  );
}
