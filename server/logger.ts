import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';

// pino-pretty (~40 files) is read only when LOG_FORMAT=pretty asks for it, not at every start;
// synchronously (it is CommonJS), since the logger is made before anything is awaited.
const loadPinoPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

/**
 * The server's log: one JSON object per line (pino), or readable lines with LOG_FORMAT=pretty.
 * It records events and request lines, never bodies, headers, cookies, tokens, payloads or
 * passphrases: callers pass only the fields below, and request lines carry the route's
 * pattern, never the path (see middleware/request-log.ts). Every value is a JSON string, so a
 * newline or a quote sent by a client cannot forge a log line.
 */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Whether lines of `level` are written (the level is fixed at start). */
  enabled(level: 'info' | 'debug'): boolean;
  /** Writes out anything buffered (before the process exits). */
  flush(): void;
}

/** Plain values only: an object would risk carrying a secret along with what was meant. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type LogLevel = 'silent' | 'error' | 'info' | 'debug';
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format?: LogFormat;
  /** Where lines go (one call per line, without the newline); stderr by default. */
  write?: (line: string) => void;
}

const STACK_FRAMES = 5;

/**
 * Only the error's class, message, code and a few stack frames: an error object can carry the
 * statement's values (a driver's `detail`), a request, or a cause holding either.
 */
function describeError(e: unknown) {
  if (!(e instanceof Error)) return undefined;
  const code = (e as { code?: unknown }).code;
  return {
    type: e.name,
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    stack: (e.stack ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('at '))
      .slice(0, STACK_FRAMES),
  };
}

/** A stream that hands each line (without its newline) to `write`. */
function linesTo(write: (line: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) write(line);
      done();
    },
  });
}

function destination(options: LoggerOptions): DestinationStream {
  const write = options.write;
  if (options.format === 'pretty') {
    return loadPinoPretty()({
      sync: true,
      colorize: false,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      destination: write ? linesTo(write) : 2,
    });
  }
  if (write) return { write: (s: string) => write(s.replace(/\n$/, '')) };
  return pino.destination({ dest: 2, sync: true });
}

/**
 * Control characters written as `\u000a`-style escapes. JSON lines escape them already; the
 * pretty format prints messages as they are, so there a client's newline (an error message
 * quoting a header value) could otherwise forge or hide a line.
 */
export function escapeForLog(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function createLogger(level: LogLevel, write?: ((line: string) => void) | LoggerOptions): Logger {
  const options: LoggerOptions = typeof write === 'function' ? { write } : (write ?? {});
  const text = options.format === 'pretty' ? escapeForLog : (s: string) => s;
  const log: PinoLogger = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination(options),
  );
  const described = (error: unknown) => {
    const d = describeError(error);
    return d && { ...d, message: text(d.message) };
  };
  return {
    info: (msg, fields) => log.info(fields ?? {}, text(msg)),
    debug: (msg, fields) => log.debug(fields ?? {}, text(msg)),
    // `error`, not pino's `err`: its serializer would dump the whole error object.
    error: (msg, error, fields) => log.error({ ...fields, error: described(error) }, text(msg)),
    enabled: (l) => log.isLevelEnabled(l),
    flush: () => log.flush(),
  };
}
