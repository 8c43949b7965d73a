/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { CSRF_FIELD } from '../middleware/session.js';

/** The hidden CSRF field every POST form carries. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

/** A button that copies the text of the element with id `target` (assets/pages.js). */
export function CopyButton({ target, label = 'Copy' }: { target: string; label?: string }) {
  return (
    <button type="button" class="secondary" data-copy={target} hidden>
      {label}
    </button>
  );
}

/** The messages of one field from a validation error (`{field: [messages]}`). */
export function FieldErrors({ errors, field }: { errors?: Record<string, string[]>; field: string }) {
  const messages = errors?.[field];
  if (!messages?.length) return null;
  return (
    <p class="error field-error" id={`${field}-error`} role="alert">
      {messages.map((m) => `${humanField(field)} ${m}`).join(' · ')}
    </p>
  );
}

export function humanField(field: string): string {
  const names: Record<string, string> = {
    payload: 'Secret',
    files: 'Files',
    kind: 'Kind',
    expire_after_days: 'Days',
    expire_after_views: 'Views',
    expire_after_duration: 'Duration',
    passphrase: 'Passphrase',
    name: 'Name',
    note: 'Note',
    email: 'Email',
    password: 'Password',
    push: 'Push',
  };
  return names[field] ?? field;
}

/** Errors for fields the form does not show, so that no message is lost. */
export function OtherErrors({ errors, shown }: { errors?: Record<string, string[]>; shown: string[] }) {
  if (!errors) return null;
  const rest = Object.entries(errors).filter(([f]) => !shown.includes(f));
  if (!rest.length) return null;
  return (
    <div class="notice error" role="alert">
      {rest.map(([f, m]) => (
        <p>{`${humanField(f)} ${m.join(', ')}`}</p>
      ))}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'error' | 'ok'; children: ComponentChildren }) {
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function plural(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A date as people read it, in UTC so that the page does not depend on the server's zone. */
export function formatDate(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}
