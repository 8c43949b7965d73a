import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { HashingLimits } from './crypto/hashing-queue.js';
import type { LogFormat, LogLevel } from './logger.js';
import type { StorageLimits } from './security/storage-quota.js';
import { checkOidcEnv, oidcEnvSchema, signInSettings, type SignInSettings } from './accounts/oidc/oidc-settings.js';
import type { S3Settings } from './storage/object-store/s3-blob-store.js';
import { LOGO_MIXED_CONTENT_MESSAGE, logoMixedContent, logoUrlSetting } from './branding/logo-url-setting.js';

/**
 * Every setting comes from the environment (documented in the README's configuration table).
 * Parsed once at start-up so a typo fails loudly instead of falling back silently.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().default(fallback);

const envSchema = z
  .object({
    PORT: int(3000, 0, 65535),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    ALLOWED_HOSTS: z.string().optional(),
    MASTER_KEY: z.string().optional(),
    /** Comma-separated retired keys, still used to decrypt (key rotation). */
    MASTER_KEY_OLD: z.string().optional(),
    RATE_LIMIT_PER_MINUTE: int(120, 0, 1_000_000),
    /** Rows of batches (one link per recipient) an account may create per hour; 0: no limit. */
    BATCH_ROWS_PER_HOUR: int(2000, 0, 10_000_000),
    TRUST_PROXY: bool(false),
    ALLOW_ANONYMOUS: bool(true),
    ALLOW_SIGNUP: bool(true),
    ENABLE_FILE_PUSHES: bool(true),
    FILES_REQUIRE_AUTH: bool(true),
    ENABLE_URL_PUSHES: bool(true),
    ENABLE_QR_PUSHES: bool(true),
    DEFAULT_EXPIRE_DAYS: int(7, 1, 3650),
    MIN_EXPIRE_DAYS: int(1, 1, 3650),
    MAX_EXPIRE_DAYS: int(90, 1, 3650),
    DEFAULT_EXPIRE_VIEWS: int(5, 1, 100_000),
    MIN_EXPIRE_VIEWS: int(1, 1, 100_000),
    MAX_EXPIRE_VIEWS: int(100, 1, 100_000),
    DEFAULT_RETRIEVAL_STEP: bool(true),
    DEFAULT_DELETABLE_BY_VIEWER: bool(true),
    MAX_PAYLOAD_CHARS: int(1_048_576, 1, 64 * 1_048_576),
    MAX_QR_CHARS: int(1024, 1, 4096),
    MAX_FILES_PER_PUSH: int(10, 1, 100),
    MAX_FILE_BYTES: int(1024 * 1_048_576, 1, 8 * 1024 * 1_048_576),
    MAX_JSON_BODY_BYTES: int(4 * 1_048_576, 1024, 256 * 1_048_576),
    PASSPHRASE_ATTEMPTS_PER_MINUTE: int(5, 1, 1000),
    PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE: int(20, 1, 100_000),
    MAX_FAILED_PASSPHRASE_ATTEMPTS: int(0, 0, 1000),
    /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465; unset: every e-mail feature is off. */
    SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, { error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z.string().min(3).max(320).optional(),
    MAIL_REPLY_TO: z.string().min(3).max(320).optional(),
    /** PEM file of a certificate authority the SMTP server's certificate is checked against (a private CA). */
    SMTP_TLS_CA_FILE: z.string().min(1).optional(),
    REQUIRE_EMAIL_CONFIRMATION: z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).optional(),
    MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).optional().default(60),
    MAIL_RETRY_FOR_HOURS: z.coerce.number().min(0).max(24 * 30).optional().default(24),
    MAIL_POLL_SECONDS: z.coerce.number().min(0.01).max(3600).optional().default(5),
    MAIL_SMTP_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(600).optional().default(30),
    WEBHOOK_ALLOW_PRIVATE: bool(false),
    /** First retry delay of a webhook delivery; each further one doubles (tests set it small). */
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).optional().default(30),
    /** Retries go on until a delivery is this old, then it is given up. */
    WEBHOOK_RETRY_FOR_HOURS: z.coerce.number().min(0).max(24 * 30).optional().default(26),
    WEBHOOK_POLL_SECONDS: z.coerce.number().min(0.01).max(3600).optional().default(5),
    WEBHOOK_TIMEOUT_SECONDS: int(10, 1, 120),
    SIGN_IN_FAILURES_BEFORE_BACKOFF: int(5, 1, 1000),
    SIGN_IN_BACKOFF_MAX_SECONDS: int(3600, 1, 86_400),
    SIGN_IN_ATTEMPTS_PER_IP_PER_MINUTE: int(20, 1, 100_000),
    SIGN_UPS_PER_IP_PER_HOUR: int(10, 1, 100_000),
    /** Password accounts must set up a second factor (TOTP or a passkey) at their next sign-in. */
    REQUIRE_MFA: bool(false),
    MAX_STORAGE_MB: int(1024, 0, 16 * 1024 * 1024),
    ACCOUNT_STORAGE_MB_PER_DAY: int(256, 0, 16 * 1024 * 1024),
    ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: int(32, 0, 16 * 1024 * 1024),
    HASHING_CONCURRENCY: int(2, 1, 256),
    HASHING_QUEUE: int(64, 0, 100_000),
    PASSWORD_HASH_COST: int(14, 10, 17),
    HEADERS_TIMEOUT_SECONDS: int(15, 1, 3600),
    REQUEST_TIMEOUT_SECONDS: int(30, 1, 86_400),
    EXPIRY_SWEEP_SECONDS: int(60, 1, 86_400),
    PURGE_COMPACTION_SECONDS: int(60, 0, 86_400),
    PURGE_EXPIRED_AFTER_DAYS: int(30, 0, 36_500),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a PostgreSQL connection URL (postgres://user:password@host:5432/database)' })
      .optional(),
    DATABASE_POOL_SIZE: int(10, 1, 1000),
    /** Unset or `store`: files where the store keeps them (DATA_DIR or PostgreSQL); `s3`: in an S3-compatible bucket. */
    FILE_STORAGE: z.enum(['store', 's3']).default('store'),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_PREFIX: z.string().max(512).default(''),
    S3_FORCE_PATH_STYLE: bool(false),
    WIKI_BASE_URL: z.url().default('https://www.mediawiki.org/wiki'),
    LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
    LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
    /** Unset: no /metrics. Set: /metrics answers with `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters (generate one with: openssl rand -hex 32)' }).optional(),
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
    /** The same setting under the short name operators also use. */
    SHUTDOWN_TIMEOUT_S: z.coerce.number().int().min(0).max(3600).optional(),
    /** On SIGTERM, /readyz answers 503 this long before the server stops accepting (the balancer's time to notice). */
    SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(3600).optional().default(5),
    ...oidcEnvSchema,
    /** Comma-separated emails whose accounts are administrators (besides `npm run users -- admin`). */
    ADMIN_EMAILS: z.string().optional(),
    /** Anonymous creation off: only signed-in accounts create (retrieval stays open). */
    CREATE_REQUIRES_ACCOUNT: bool(false),
    /** open: anyone signs up; invite: only with an admin's invite link; closed: nobody. Unset: ALLOW_SIGNUP decides. */
    SIGN_UP: z.enum(['open', 'invite', 'closed']).optional(),
    BRAND_NAME: z.string().trim().min(1).max(60).optional(),
    BRAND_LOGO_URL: logoUrlSetting.optional(),
    /** #rrggbb; refused when it cannot reach 4.5:1 contrast against white text or the page. */
    BRAND_PRIMARY_COLOR: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour as #rrggbb' }).optional(),
    /** A stylesheet file, served from our own origin as /assets/brand.css (the CSP stays strict). */
    BRAND_CSS: z.string().min(1).optional(),
    BRAND_PRIVACY_URL: z.url({ protocol: /^https?$/ }).optional(),
    BRAND_TERMS_URL: z.url({ protocol: /^https?$/ }).optional(),
    BRAND_IMPRINT_URL: z.url({ protocol: /^https?$/ }).optional(),
  })
  .refine((e) => e.MIN_EXPIRE_DAYS <= e.DEFAULT_EXPIRE_DAYS && e.DEFAULT_EXPIRE_DAYS <= e.MAX_EXPIRE_DAYS, {
    message: 'DEFAULT_EXPIRE_DAYS must lie between MIN_EXPIRE_DAYS and MAX_EXPIRE_DAYS',
  })
  .refine((e) => !e.DATABASE_URL || e.MASTER_KEY, {
    message: 'MASTER_KEY must be set with DATABASE_URL: every instance on the database needs the same key (generate one with: openssl rand -hex 32)',
    path: ['MASTER_KEY'],
  })
  .refine((e) => e.FILE_STORAGE !== 's3' || e.S3_BUCKET, {
    message: 'S3_BUCKET must be set with FILE_STORAGE=s3',
    path: ['S3_BUCKET'],
  })
  .refine((e) => e.HEADERS_TIMEOUT_SECONDS <= e.REQUEST_TIMEOUT_SECONDS, {
    message: 'HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS',
  })
  .superRefine(checkOidcEnv)
  .refine((e) => e.MIN_EXPIRE_VIEWS <= e.DEFAULT_EXPIRE_VIEWS && e.DEFAULT_EXPIRE_VIEWS <= e.MAX_EXPIRE_VIEWS, {
    message: 'DEFAULT_EXPIRE_VIEWS must lie between MIN_EXPIRE_VIEWS and MAX_EXPIRE_VIEWS',
  })
  .refine((e) => !logoMixedContent(e), { message: LOGO_MIXED_CONTENT_MESSAGE, path: ['BRAND_LOGO_URL'] });

export interface Limits {
  days: { default: number; min: number; max: number };
  views: { default: number; min: number; max: number };
  retrievalStep: boolean;
  deletableByViewer: boolean;
  maxPayloadChars: number;
  maxQrChars: number;
  maxFilesPerPush: number;
  maxFileBytes: number;
  passphraseAttemptsPerMinute: number;
  /** Failed passphrases per client IP per minute, across all pushes. */
  passphraseAttemptsPerIpPerMinute: number;
  /** Default burn-on-guessing limit of a push with a passphrase (0: off). */
  maxFailedPassphraseAttempts: number;
}

export interface WebhookSettings {
  /** Loopback, private, link-local and unique-local targets are refused unless true. */
  allowPrivate: boolean;
  retryBaseMs: number;
  /** A delivery still failing this long after its event is given up. */
  retryForMs: number;
  pollMs: number;
  timeoutMs: number;
}

/** Sending e-mail (server/mail/): present only when SMTP_URL is set. */
export interface MailSettings {
  smtpUrl: string;
  from: string;
  replyTo: string | undefined;
  /** PEM text of the CA to trust for the SMTP server's certificate, besides the system's. */
  tlsCa: string | undefined;
  /** New accounts must confirm their address before they can sign in. */
  requireConfirmation: boolean;
  retryBaseMs: number;
  /** A mail still failing (4xx, no connection) this long after it was queued is given up. */
  retryForMs: number;
  pollMs: number;
  /** Each step of an SMTP exchange (connect, greeting, each reply) within this, else it is cut off and retried. */
  smtpTimeoutMs: number;
}

export interface SignInLimits {
  /**
   * Failed sign-ins per client address and account (typed email, whether or not it exists)
   * before back-off: each further one waits 1, 2, 4… minutes, at most `backoffMaxSeconds`.
   */
  failuresBeforeBackoff: number;
  backoffMaxSeconds: number;
  /** Failed sign-ins per client IP per minute. */
  perIpPerMinute: number;
  /** Accounts made per client address per hour. */
  signUpsPerIpPerHour: number;
}

export interface Features {
  anonymousAccess: boolean;
  /** CREATE_REQUIRES_ACCOUNT: only accounts create; anyone with a link still retrieves. */
  createRequiresAccount: boolean;
  signup: boolean;
  filePushes: boolean;
  filesRequireAuth: boolean;
  urlPushes: boolean;
  qrPushes: boolean;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Public origin used in secret URLs; when unset, derived from the request's Host. */
  baseUrl: string | undefined;
  /** Without BASE_URL: Host values (besides the listen address) that links may be built on. */
  allowedHosts: string[];
  masterKey: string | undefined;
  oldMasterKeys: string[];
  rateLimitPerMinute: number;
  /** Batch rows per account per hour (the batch request itself counts once in rateLimitPerMinute). */
  batchRowsPerHour: number;
  trustProxy: boolean;
  maxJsonBodyBytes: number;
  expirySweepSeconds: number;
  /** At most this often the snapshot is rewritten so that erased secrets leave the journal. */
  purgeCompactionSeconds: number;
  /** Expired pushes' records and audit trails are deleted this many days after expiry (0: kept). */
  purgeExpiredAfterDays: number;
  /** PostgreSQL instead of the embedded store, shared by every instance on it. */
  database: { url: string; poolSize: number } | undefined;
  /** Files in an S3-compatible bucket instead of the store (FILE_STORAGE=s3); undefined: in the store. */
  objectStorage: S3Settings | undefined;
  /** Slow clients: time to send the request headers, and the whole request. */
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  signIn: SignInLimits;
  /** REQUIRE_MFA: no session for a password account without a second factor. */
  requireMfa: boolean;
  /** Storage quotas: the whole store, and per account / anonymous address per day. */
  storage: StorageLimits;
  /** Concurrent scrypt computations, how many may wait (more: 503), and the cost of new hashes. */
  hashing: HashingLimits;
  wikiBaseUrl: string;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** The bearer token /metrics asks for; metrics are off without one. */
  metricsToken: string | undefined;
  /** On SIGTERM, requests in flight get this long to finish before their connections are cut. */
  shutdownTimeoutSeconds: number;
  /**
   * On SIGTERM, first this long of /readyz answering 503 while everything else is served as
   * before, so that a balancer polling /readyz stops sending here before connections are refused.
   */
  shutdownDelaySeconds: number;
  features: Features;
  /** OpenID Connect, SSO_ONLY and SIGN_UP_EMAIL_DOMAINS (accounts/oidc/oidc-settings.ts). */
  signInMethods: SignInSettings;
  limits: Limits;
  webhooks: WebhookSettings;
  admin: AdminSettings;
  brand: BrandSettings;
  /** Undefined without SMTP_URL: no e-mail is sent and the pages offer none. */
  mail: MailSettings | undefined;
  /** Every setting as it took effect, with its source (secrets unmasked: mask before showing). */
  settings: Record<string, SettingSource>;
}

/** Where a setting's value came from (the admin's configuration page shows it). */
export interface SettingSource {
  value: string;
  source: 'environment' | 'default';
}

export interface AdminSettings {
  emails: string[];
  createRequiresAccount: boolean;
  signUp: 'open' | 'invite' | 'closed';
}

export interface BrandSettings {
  name: string | undefined;
  logoUrl: string | undefined;
  primaryColor: string | undefined;
  cssFile: string | undefined;
  privacyUrl: string | undefined;
  termsUrl: string | undefined;
  imprintUrl: string | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  // REQUEST_TIMEOUT_S is accepted as another spelling of REQUEST_TIMEOUT_SECONDS.
  if (given.REQUEST_TIMEOUT_SECONDS === undefined && given.REQUEST_TIMEOUT_S !== undefined) given.REQUEST_TIMEOUT_SECONDS = given.REQUEST_TIMEOUT_S;
  // A setting whose meaning changed is refused, not silently ignored.
  if (given.SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: no longer exists (it let anyone lock an account). Use SIGN_IN_FAILURES_BEFORE_BACKOFF (failures per client address and account before back-off).',
    );
  }
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const settings = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => {
      const v = (e as Record<string, unknown>)[k];
      return [k, { value: v === undefined ? '' : String(v), source: given[k] !== undefined ? 'environment' : 'default' } satisfies SettingSource];
    }),
  );
  if (e.SMTP_URL && !e.MAIL_FROM) throw new ConfigError('Invalid configuration:\n  MAIL_FROM: required with SMTP_URL (the address e-mails are sent from)');
  if (!e.SMTP_URL && e.REQUIRE_EMAIL_CONFIRMATION && bool(false).parse(e.REQUIRE_EMAIL_CONFIRMATION)) {
    throw new ConfigError('Invalid configuration:\n  REQUIRE_EMAIL_CONFIRMATION: needs SMTP_URL (no confirmation e-mail could be sent)');
  }
  let tlsCa: string | undefined;
  if (e.SMTP_TLS_CA_FILE) {
    try {
      tlsCa = readFileSync(e.SMTP_TLS_CA_FILE, 'utf8');
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  SMTP_TLS_CA_FILE: cannot be read (${(err as Error).message})`);
    }
  }
  return {
    settings,
    admin: {
      emails: (e.ADMIN_EMAILS ?? '').split(',').map((m) => m.trim().toLowerCase()).filter(Boolean),
      createRequiresAccount: e.CREATE_REQUIRES_ACCOUNT,
      signUp: e.SIGN_UP ?? (e.ALLOW_SIGNUP ? 'open' : 'closed'),
    },
    brand: {
      name: e.BRAND_NAME,
      logoUrl: e.BRAND_LOGO_URL,
      primaryColor: e.BRAND_PRIMARY_COLOR?.toLowerCase(),
      cssFile: e.BRAND_CSS,
      privacyUrl: e.BRAND_PRIVACY_URL,
      termsUrl: e.BRAND_TERMS_URL,
      imprintUrl: e.BRAND_IMPRINT_URL,
    },
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    baseUrl: e.BASE_URL?.replace(/\/+$/, ''),
    allowedHosts: (e.ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    masterKey: e.MASTER_KEY,
    oldMasterKeys: (e.MASTER_KEY_OLD ?? '').split(',').map((k) => k.trim()).filter(Boolean),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    batchRowsPerHour: e.BATCH_ROWS_PER_HOUR,
    trustProxy: e.TRUST_PROXY,
    maxJsonBodyBytes: e.MAX_JSON_BODY_BYTES,
    expirySweepSeconds: e.EXPIRY_SWEEP_SECONDS,
    purgeCompactionSeconds: e.PURGE_COMPACTION_SECONDS,
    purgeExpiredAfterDays: e.PURGE_EXPIRED_AFTER_DAYS,
    database: e.DATABASE_URL ? { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE } : undefined,
    objectStorage:
      e.FILE_STORAGE === 's3'
        ? {
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            bucket: e.S3_BUCKET!,
            prefix: e.S3_PREFIX.replace(/^\/+/, '').replace(/\/*$/, e.S3_PREFIX.replace(/^\/+/, '') ? '/' : ''),
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    headersTimeoutSeconds: e.HEADERS_TIMEOUT_SECONDS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    signIn: {
      failuresBeforeBackoff: e.SIGN_IN_FAILURES_BEFORE_BACKOFF,
      backoffMaxSeconds: e.SIGN_IN_BACKOFF_MAX_SECONDS,
      perIpPerMinute: e.SIGN_IN_ATTEMPTS_PER_IP_PER_MINUTE,
      signUpsPerIpPerHour: e.SIGN_UPS_PER_IP_PER_HOUR,
    },
    requireMfa: e.REQUIRE_MFA,
    storage: { maxStorageMb: e.MAX_STORAGE_MB, accountMbPerDay: e.ACCOUNT_STORAGE_MB_PER_DAY, anonymousMbPerIpPerDay: e.ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY },
    hashing: { concurrency: e.HASHING_CONCURRENCY, maxWaiting: e.HASHING_QUEUE, cost: e.PASSWORD_HASH_COST },
    wikiBaseUrl: e.WIKI_BASE_URL.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS ?? e.SHUTDOWN_TIMEOUT_S ?? 20,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    features: {
      anonymousAccess: e.ALLOW_ANONYMOUS,
      createRequiresAccount: e.CREATE_REQUIRES_ACCOUNT,
      signup: (e.SIGN_UP ?? (e.ALLOW_SIGNUP ? 'open' : 'closed')) !== 'closed',
      filePushes: e.ENABLE_FILE_PUSHES,
      filesRequireAuth: e.FILES_REQUIRE_AUTH,
      urlPushes: e.ENABLE_URL_PUSHES,
      qrPushes: e.ENABLE_QR_PUSHES,
    },
    signInMethods: signInSettings(e),
    limits: {
      days: { default: e.DEFAULT_EXPIRE_DAYS, min: e.MIN_EXPIRE_DAYS, max: e.MAX_EXPIRE_DAYS },
      views: { default: e.DEFAULT_EXPIRE_VIEWS, min: e.MIN_EXPIRE_VIEWS, max: e.MAX_EXPIRE_VIEWS },
      retrievalStep: e.DEFAULT_RETRIEVAL_STEP,
      deletableByViewer: e.DEFAULT_DELETABLE_BY_VIEWER,
      maxPayloadChars: e.MAX_PAYLOAD_CHARS,
      maxQrChars: e.MAX_QR_CHARS,
      maxFilesPerPush: e.MAX_FILES_PER_PUSH,
      maxFileBytes: e.MAX_FILE_BYTES,
      passphraseAttemptsPerMinute: e.PASSPHRASE_ATTEMPTS_PER_MINUTE,
      passphraseAttemptsPerIpPerMinute: e.PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE,
      maxFailedPassphraseAttempts: e.MAX_FAILED_PASSPHRASE_ATTEMPTS,
    },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      retryBaseMs: Math.round(e.WEBHOOK_RETRY_BASE_SECONDS * 1000),
      retryForMs: Math.round(e.WEBHOOK_RETRY_FOR_HOURS * 3_600_000),
      pollMs: Math.round(e.WEBHOOK_POLL_SECONDS * 1000),
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
    },
    mail: e.SMTP_URL
      ? {
          smtpUrl: e.SMTP_URL,
          from: e.MAIL_FROM!,
          replyTo: e.MAIL_REPLY_TO,
          tlsCa,
          requireConfirmation: bool(true).parse(e.REQUIRE_EMAIL_CONFIRMATION),
          retryBaseMs: Math.round(e.MAIL_RETRY_BASE_SECONDS * 1000),
          retryForMs: Math.round(e.MAIL_RETRY_FOR_HOURS * 3_600_000),
          pollMs: Math.round(e.MAIL_POLL_SECONDS * 1000),
          smtpTimeoutMs: Math.round(e.MAIL_SMTP_TIMEOUT_SECONDS * 1000),
        }
      : undefined,
  };
}
