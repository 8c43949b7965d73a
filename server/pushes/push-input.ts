import { isPassphraseCheck, PASSPHRASE_CHECK_CHARS } from '../../shared/e2e/passphrase-check.js';
import { pushInputSchema, pushKindSchema, type PushKind } from '../../shared/push-schema.js';
import type { Features, Limits } from '../config.js';
import { ServiceError } from '../service-error.js';
import { endToEndFileProblem, endToEndPayloadProblem, type UploadedFileFacts } from './end-to-end.js';
import { DURATION_CODES_MINUTES } from './expiry.js';
import { releaseOf } from './release.js';

/** A create request after every rule about its fields has been applied. */
export interface NewPushFields {
  kind: PushKind;
  payload: string | null;
  expireAfterDays: number;
  expireAfterViews: number;
  lifetimeMinutes: number;
  deletableByViewer: boolean | null;
  retrievalStep: boolean;
  passphrase: string | null;
  name: string | null;
  note: string | null;
  /** Burn on guessing: expire at this many wrong passphrases; null: never. */
  maxFailedPassphraseAttempts: number | null;
  /** The payload and files are envelopes encrypted by the client (docs/end-to-end-encryption.md). */
  endToEnd: boolean;
  /** Scheduled release: the push opens from this time (ISO); null: at once. */
  notBefore: string | null;
  /** Where the push's lifetime starts: creation, or its release (`expire_from_release`). */
  lifetimeFrom: Date;
  /** Linked secrets: the URL token of the push this one follows (its owner is checked by the service), and until when. */
  follows: { token: string; until: string | null } | null;
}

const MAX_NAME_CHARS = 255;
const MAX_NOTE_CHARS = 10_000;
const MAX_PASSPHRASE_CHARS = 1024;
/** Burn on guessing: most wrong passphrases a push may be set to survive. */
export const MAX_FAILED_PASSPHRASE_ATTEMPTS = 1000;

function kindLabel(kind: PushKind) {
  return { text: 'Text', file: 'File', url: 'URL', qr: 'QR code' }[kind];
}

/** Lone surrogates cannot be encoded as UTF-8 and would come back as U+FFFD: refuse them. */
function hasLoneSurrogate(s: string) {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

/** C0 and C1 control characters and DEL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

function isHttpUrl(s: string) {
  try {
    const u = new URL(s.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Validates the `push` object of a create request against the instance's limits and features.
 * Every problem is reported at once as Password Pusher's 422 body: `{field: [messages]}`.
 */
export function validatePushInput(raw: unknown, ctx: { limits: Limits; features: Features; hasFiles: boolean; files?: UploadedFileFacts[]; now?: Date }): NewPushFields {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ServiceError('bad_request', 'param is missing or the value is empty or invalid: push');
  }
  // A form's number field left empty means the server's default, as if it were not sent.
  const given = raw as Record<string, unknown>;
  const parsed = pushInputSchema.safeParse(given.max_failed_passphrase_attempts === '' ? { ...given, max_failed_passphrase_attempts: undefined } : raw);
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) add(String(issue.path[0] ?? 'push'), issue.message);
    throw ServiceError.validation(errors);
  }
  const input = parsed.data;
  const { limits, features } = ctx;

  let kind: PushKind = ctx.hasFiles ? 'file' : 'text';
  if (input.kind !== undefined) {
    const k = pushKindSchema.safeParse(input.kind);
    if (k.success) kind = k.data;
    else add('kind', `is not a valid kind: use one of ${pushKindSchema.options.join(', ')}`);
  }
  const enabled: Record<PushKind, boolean> = { text: true, file: features.filePushes, url: features.urlPushes, qr: features.qrPushes };
  if (!enabled[kind]) add('kind', `${kindLabel(kind)} pushes are disabled.`);

  const payload = input.payload ?? null;
  if (kind !== 'file' && (payload === null || payload === '')) add('payload', "can't be blank");
  if (payload !== null) {
    if (hasLoneSurrogate(payload)) add('payload', 'contains invalid Unicode (a lone surrogate)');
    const max = kind === 'qr' ? limits.maxQrChars : limits.maxPayloadChars;
    if ([...payload].length > max) add('payload', `is too long (maximum is ${max} characters)`);
    if (kind === 'url' && payload !== '') {
      // A URL push ends in a redirect: a control character there would break the Location header
      // (a 500 after the view was counted) or split it. Refused before anything is stored.
      if (CONTROL_CHARACTER.test(payload.trim())) add('payload', 'must not contain control characters (line breaks, tabs, NUL…) in a URL');
      else if (!isHttpUrl(payload)) add('payload', 'must be an http or https URL');
    }
  }
  if (kind === 'file') {
    // The number of files is limited by FileUpload, before the extra file reaches the disk.
    if (!ctx.hasFiles) add('files', 'must include at least one file for a file push');
  } else if (ctx.hasFiles) add('files', `cannot be attached to a ${kind} push`);

  const endToEnd = input.end_to_end === true;
  if (endToEnd) {
    // Only the envelope's framing can be checked: the server never has the key.
    if (kind === 'url' || kind === 'qr') add('end_to_end', `is not offered for ${kindLabel(kind)} pushes: the server must read them (to redirect, to draw the code)`);
    else if (payload) {
      const problem = endToEndPayloadProblem(payload, kind === 'file' ? 'manifest' : 'text');
      if (problem) add('payload', problem);
    } else if (kind === 'file') add('payload', "can't be blank in an end_to_end file push: it carries the encrypted file list");
    (ctx.files ?? []).forEach((file, i) => {
      const problem = endToEndFileProblem(file);
      if (problem) add('files', `file ${i + 1} ${problem}`);
    });
    // Only its check (shared/e2e/passphrase-check.ts): the passphrase itself is mixed into the key on the client.
    if (input.passphrase && !isPassphraseCheck(input.passphrase)) {
      add('passphrase', `must be the passphrase check of an end_to_end push (${PASSPHRASE_CHECK_CHARS} base64url characters, docs/end-to-end-encryption.md), never the passphrase itself: the server would see it`);
    }
  }

  let lifetimeMinutes: number | undefined;
  let days = input.expire_after_days;
  if (days !== undefined) {
    if (days < limits.days.min || days > limits.days.max) add('expire_after_days', `must be between ${limits.days.min} and ${limits.days.max}`);
  } else if (input.expire_after_duration !== undefined) {
    const code = input.expire_after_duration;
    const minutes = DURATION_CODES_MINUTES[code];
    if (minutes === undefined) add('expire_after_duration', `must be a duration code between 0 and ${DURATION_CODES_MINUTES.length - 1}`);
    else {
      lifetimeMinutes = Math.min(minutes, limits.days.max * 1440);
      days = Math.max(1, Math.ceil(lifetimeMinutes / 1440));
    }
  }
  days ??= limits.days.default;
  lifetimeMinutes ??= days * 1440;

  const views = input.expire_after_views ?? limits.views.default;
  if (views < limits.views.min || views > limits.views.max) add('expire_after_views', `must be between ${limits.views.min} and ${limits.views.max}`);

  const passphrase = input.passphrase ? input.passphrase : null;
  if (passphrase && [...passphrase].length > MAX_PASSPHRASE_CHARS) add('passphrase', `is too long (maximum is ${MAX_PASSPHRASE_CHARS} characters)`);
  const name = input.name?.trim() ? input.name.trim() : null;
  if (name && [...name].length > MAX_NAME_CHARS) add('name', `is too long (maximum is ${MAX_NAME_CHARS} characters)`);
  const note = input.note ? input.note : null;
  if (note && [...note].length > MAX_NOTE_CHARS) add('note', `is too long (maximum is ${MAX_NOTE_CHARS} characters)`);
  let maxFailedPassphraseAttempts: number | null = null;
  const burn = input.max_failed_passphrase_attempts;
  if (burn !== undefined) {
    if (burn < 0 || burn > MAX_FAILED_PASSPHRASE_ATTEMPTS) add('max_failed_passphrase_attempts', `must be between 0 (off) and ${MAX_FAILED_PASSPHRASE_ATTEMPTS}`);
    else if (burn > 0 && !passphrase) {
      add('max_failed_passphrase_attempts', endToEnd ? 'needs a passphrase check with an end_to_end push (it counts wrong passphrases)' : 'needs a passphrase (it counts wrong passphrases)');
    }
    else maxFailedPassphraseAttempts = burn > 0 ? burn : null;
  } else if (passphrase && limits.maxFailedPassphraseAttempts > 0) {
    maxFailedPassphraseAttempts = limits.maxFailedPassphraseAttempts;
  }
  const release = releaseOf({ notBefore: input.not_before, fromRelease: input.expire_from_release === true }, ctx.now ?? new Date(), lifetimeMinutes, limits.days.max, add);
  const follows = followsOf(input.follows, input.follows_until, ctx.now ?? new Date(), add);
  for (const [field, value] of [['passphrase', passphrase], ['name', name], ['note', note]] as const) {
    if (value && hasLoneSurrogate(value)) add(field, 'contains invalid Unicode (a lone surrogate)');
  }

  if (Object.keys(errors).length) throw ServiceError.validation(errors);
  return {
    kind,
    payload: kind === 'url' && payload ? payload.trim() : payload,
    expireAfterDays: days,
    expireAfterViews: views,
    lifetimeMinutes,
    // URL pushes redirect the viewer away at once: they are never deletable by viewers.
    deletableByViewer: kind === 'url' ? null : (input.deletable_by_viewer ?? limits.deletableByViewer),
    retrievalStep: input.retrieval_step ?? limits.retrievalStep,
    passphrase,
    name,
    note,
    maxFailedPassphraseAttempts,
    endToEnd,
    notBefore: release.notBefore,
    lifetimeFrom: release.lifetimeFrom,
    follows,
  };
}

/** A push's link (…/p/<token> or …/p/<token>/r) or its bare URL token. */
const FOLLOWS_LINK = /^(?:https?:\/\/[^/\s]+)?\/p\/([a-z0-9_-]{1,64})(?:\/r)?\/?$/;
const BARE_TOKEN = /^[a-z0-9_-]{1,64}$/;

/** `follows` (a link or token) and `follows_until` (a time already past: no wait, as not_before). */
function followsOf(given: string | undefined, until: string | undefined, now: Date, add: (field: string, message: string) => void): NewPushFields['follows'] {
  const text = given?.trim() ?? '';
  if (text === '') {
    if (until !== undefined) add('follows_until', 'needs follows (the push this one follows)');
    return null;
  }
  const token = BARE_TOKEN.test(text) ? text : FOLLOWS_LINK.exec(text)?.[1];
  if (!token) {
    add('follows', 'must be the link (or URL token) of one of your own pushes');
    return null;
  }
  return { token, until: until !== undefined && Date.parse(until) > now.getTime() ? until : null };
}
