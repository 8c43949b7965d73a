/**
 * Times in the reader's own time zone (the server only knows UTC, and writes that):
 * - `<time datetime="…" data-local-time>` is rewritten as a long local date and time;
 * - a `datetime-local` input named by a hidden input's `data-local-time-of` fills that hidden
 *   input with the moment it means here (ISO 8601 in UTC), so the server gets an unambiguous time;
 * - `[data-time-zone]` shows the browser's time zone name, to say how the input is read.
 * Without scripts the pages stay right in UTC (the create page then reads its input as UTC).
 */
const lang = document.documentElement.lang || undefined;
const longLocal = new Intl.DateTimeFormat(lang, {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-local-time]')) {
  const at = new Date(time.dateTime);
  if (!Number.isNaN(at.getTime())) time.textContent = longLocal.format(at);
}

for (const hidden of document.querySelectorAll<HTMLInputElement>('input[data-local-time-of]')) {
  const source = document.getElementById(hidden.dataset.localTimeOf ?? '') as HTMLInputElement | null;
  if (!source) continue;
  // A date-time without an offset is local time in every browser (ECMAScript's rule for this form).
  const fill = () => {
    const at = source.value ? new Date(source.value) : null;
    hidden.value = at && !Number.isNaN(at.getTime()) ? at.toISOString() : '';
  };
  source.addEventListener('input', fill);
  source.addEventListener('change', fill);
  source.form?.addEventListener('submit', fill, { capture: true });
  fill();
}

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
for (const label of document.querySelectorAll<HTMLElement>('[data-time-zone]')) {
  if (zone) label.textContent = label.dataset.timeZoneTemplate?.replace('{zone}', zone) ?? zone;
}
