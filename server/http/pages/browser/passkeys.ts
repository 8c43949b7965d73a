import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

/**
 * Passkey forms (sign-in-step-pages.tsx): each carries the WebAuthn options and a signed ticket
 * from the server. On submit the browser is asked for a passkey; its answer goes into the
 * form's `response` field and the form is sent as an ordinary POST (CSRF token and all), so the
 * server's answer is an ordinary page or redirect. Forms stay hidden where WebAuthn is missing.
 */
if (browserSupportsWebAuthn()) {
  for (const note of document.querySelectorAll<HTMLElement>('[data-passkey-unavailable]')) note.hidden = true;
}
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-passkey]')) {
  if (!browserSupportsWebAuthn()) continue;
  form.hidden = false;
  const error = form.querySelector<HTMLElement>('[data-passkey-error]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (error) error.hidden = true;
    if (button) button.disabled = true;
    try {
      const optionsJSON = JSON.parse(form.dataset.options ?? '{}');
      const answer = form.dataset.passkey === 'register' ? await startRegistration({ optionsJSON }) : await startAuthentication({ optionsJSON });
      form.querySelector<HTMLInputElement>('input[name="response"]')!.value = JSON.stringify(answer);
      form.submit();
    } catch {
      // Cancelled, timed out, or no passkey for this site: say so; the form can be tried again.
      if (error) {
        error.textContent = form.dataset.failed ?? '';
        error.hidden = false;
      }
      if (button) button.disabled = false;
    }
  });
}
