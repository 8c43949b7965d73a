/**
 * A deliberately small logger: the server logs events and request lines, never bodies, headers,
 * tokens or secrets. Request paths are redacted before they get here (see redact-path.ts).
 */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
  debug(message: string): void;
}

type Level = 'silent' | 'error' | 'info' | 'debug';
const rank: Record<Level, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/**
 * Every log line is one line: control characters in a message (user-controlled text that reached
 * it, such as an error's message quoting a header value) are written as escapes, so a client
 * cannot forge log lines or hide its own.
 */
export function escapeForLog(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function createLogger(level: Level, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at = (l: Level) => rank[level] >= rank[l];
  const stamp = () => new Date().toISOString();
  return {
    info: (m) => at('info') && write(`${stamp()} INFO ${escapeForLog(m)}`),
    debug: (m) => at('debug') && write(`${stamp()} DEBUG ${escapeForLog(m)}`),
    error: (m, e) => {
      if (!at('error')) return;
      // Only the error's name and message, and stack frames: never an object dump that may hold secrets.
      // The stack frames (code locations) keep their own lines; the message is escaped.
      const frames = e instanceof Error ? (e.stack?.split('\n').slice(1, 6) ?? []).filter((f) => /^\s+at /.test(f)).map(escapeForLog) : [];
      const detail = e instanceof Error ? ` ${escapeForLog(e.name)}: ${escapeForLog(e.message)}${frames.length ? '\n' + frames.join('\n') : ''}` : '';
      write(`${stamp()} ERROR ${escapeForLog(m)}${detail}`);
    },
  };
}
