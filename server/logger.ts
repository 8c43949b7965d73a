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

export function createLogger(level: Level, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at = (l: Level) => rank[level] >= rank[l];
  const stamp = () => new Date().toISOString();
  return {
    info: (m) => at('info') && write(`${stamp()} INFO ${m}`),
    debug: (m) => at('debug') && write(`${stamp()} DEBUG ${m}`),
    error: (m, e) => {
      if (!at('error')) return;
      // Only the error's name and message, and stack frames: never an object dump that may hold secrets.
      const detail = e instanceof Error ? ` ${e.name}: ${e.message}\n${e.stack?.split('\n').slice(1, 6).join('\n') ?? ''}` : '';
      write(`${stamp()} ERROR ${m}${detail}`);
    },
  };
}
