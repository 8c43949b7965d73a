import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import type { PopupEnv } from '../lib/popup-env';
import type { Problem } from '../lib/problem';
import { Notice } from './Field';

interface Props {
  problem: Problem;
  /** The server that was asked: a connection that failed offers to open it in a tab. */
  serverUrl: string;
  env: Pick<PopupEnv, 'netErrors'>;
  /** Makes the failed check again; its answer replaces `problem`. */
  retry(): unknown;
  children?: ComponentChildren;
}

/**
 * A failed server call, said in words, and what to do about a connection that failed. The
 * extension's fetch fails alike for a server that is down and for a certificate the browser does
 * not trust; the browser's reason is read through `webRequest` (lib/net-errors.ts), which the
 * extension does not hold at install. In Firefox "Find out why" asks for it (in the click:
 * browsers ask only during a user gesture) and makes the failed check once more; the permission
 * is given back as soon as a reason has been shown. In Chromium, which cannot use it without a
 * restart (wxt.config.ts), or when it is refused, the user is pointed at the server's address in
 * a tab, where the browser's own page names the problem; that link is there for every failed
 * connection.
 */
export function ProblemNotice({ problem, serverUrl, env: { netErrors }, retry, children }: Props) {
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    if (problem.netError) void netErrors?.release().catch(() => undefined);
  }, [problem]);
  const unexplained = problem.kind === 'network' && !problem.netError;
  const ask =
    unexplained && netErrors && !refused
      ? () =>
          void netErrors
            .request()
            .catch(() => false)
            .then((granted) => (granted ? retry() : setRefused(true)))
      : undefined;
  return (
    <Notice tone="error">
      <p>{problem.message}</p>
      {unexplained && !ask && <p>{t('why_in_tab')}</p>}
      {children}
      {(problem.kind === 'network' || problem.kind === 'tls') && (
        <p class="actions">
          {ask && (
            <button type="button" onClick={ask}>
              {t('find_out_why')}
            </button>
          )}
          <a href={serverUrl} target="_blank" rel="noreferrer">
            {t('open_server')}
          </a>
        </p>
      )}
    </Notice>
  );
}
