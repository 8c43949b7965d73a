import { useState } from 'preact/hooks';
import type { ConnectResult } from '../lib/connect-handler';
import { t } from '../lib/i18n';
import type { PopupEnv } from '../lib/popup-env';

/**
 * "Connect": the server's sign-in opens in a browser window; when the user approves, the
 * background keeps the token it got (lib/connect-flow.ts). In Chromium the popup closes when the
 * window opens; the token is saved all the same and the popup shows it works when reopened.
 */
export function ConnectAction({ env, onConnected, primary }: { env: Pick<PopupEnv, 'connect'>; onConnected(): void; primary?: boolean }) {
  const [state, setState] = useState<'idle' | 'busy' | ConnectResult>('idle');
  const connect = env.connect;
  if (!connect) return null;
  const run = () => {
    setState('busy');
    void connect()
      .catch((err: unknown): ConnectResult => ({ ok: false, reason: 'failed', detail: String(err) }))
      .then((result) => {
        setState(result ?? { ok: false, reason: 'failed', detail: t('background_silent') });
        if (result?.ok) onConnected();
      });
  };
  return (
    <div class="connect">
      <button type="button" class={primary ? 'primary' : undefined} disabled={state === 'busy'} onClick={run}>
        {state === 'busy' ? t('connecting') : t('connect_button')}
      </button>
      {typeof state === 'object' && (
        <p role="status" class={state.ok ? undefined : 'field-error'}>
          {state.ok ? t('connect_done', state.label) : state.reason === 'cancelled' ? t('connect_cancelled') : t('connect_failed', state.detail)}
        </p>
      )}
    </div>
  );
}

/** The token was refused (revoked on the server's tokens page): say so, and offer Connect. */
export function ReconnectNotice({ env, onConnected }: { env: Pick<PopupEnv, 'connect'>; onConnected(): void }) {
  return (
    <div class="notice error" role="alert">
      <p>{t('reconnect_needed')}</p>
      <ConnectAction env={env} primary onConnected={onConnected} />
    </div>
  );
}
