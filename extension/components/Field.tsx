import type { ComponentChildren, Ref } from 'preact';

/** An error shown under the control it concerns; referenced by the control's aria-describedby. */
/** The ids of the error and hint paragraphs that describe a field, for screen readers. */
function describedBy(id: string, error: string | undefined, hint: unknown): string | undefined {
  return [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} class="field-error" role="alert">
      {message}
    </p>
  );
}

interface NumberFieldProps {
  id: string;
  label: string;
  value: number | undefined;
  min: number;
  max: number;
  error?: string;
  hint?: string;
  placeholder?: string;
  onChange(value: number | undefined): void;
}

export function NumberField({ id, label, value, min, max, error, hint, placeholder, onChange }: NumberFieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value ?? ''}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onInput={(e) => {
          const text = e.currentTarget.value.trim();
          onChange(text === '' ? undefined : Number(text));
        }}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

interface CheckFieldProps {
  id: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  hint?: string;
  onChange(checked: boolean): void;
}

export function CheckField({ id, label, checked, disabled, hint, onChange }: CheckFieldProps) {
  return (
    <div class="field check">
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy(id, undefined, hint)}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  type?: 'text' | 'url' | 'password' | 'datetime-local' | 'email';
  error?: string;
  hint?: ComponentChildren;
  placeholder?: string;
  autoComplete?: string;
  inputRef?: Ref<HTMLInputElement>;
  onChange(value: string): void;
}

export function TextField({ id, label, value, type = 'text', error, hint, placeholder, autoComplete, inputRef, onChange }: TextFieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        name={id}
        type={type as 'text'}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete ?? 'off'}
        spellcheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A message about the whole view: problems are announced at once, news politely. */
export function Notice({ tone, children }: { tone: 'error' | 'info' | 'success'; children: ComponentChildren }) {
  return (
    <div class={`notice ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
