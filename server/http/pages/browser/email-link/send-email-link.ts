// "E-mail the link…" with scripts on (the form in pages/email-link/email-link-form.tsx): the form
// is posted from here and the server's answer for it put in its place, so that the page keeps
// the link it shows. An end-to-end push's link holds its key only in this page (after the #): it
// is sent with the form as link_key, for these e-mails alone; the server never had it otherwise.

/** Sends every e-mail form in `root` from this page instead of navigating away from it. */
export function enhanceEmailLinkForms(root: ParentNode) {
  root.querySelectorAll<HTMLFormElement>('form[data-email-link-form]').forEach((form) => {
    if (form.dataset.enhanced) return;
    form.dataset.enhanced = 'true';
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void sendEmailLinkForm(form);
    });
  });
}

/** The key of the link shown on this page (the part after #), or undefined where it has none. */
function linkKeyShown(): string | undefined {
  const link = document.getElementById('secret-link')?.textContent ?? '';
  const hash = link.indexOf('#');
  return hash >= 0 && hash < link.length - 1 ? link.slice(hash + 1) : undefined;
}

/**
 * Posts the form (as the browser would, form-encoded) and shows the server's answer for it: the
 * addresses it went to, or the fields' messages with what was typed. Resolves once shown.
 */
export async function sendEmailLinkForm(form: HTMLFormElement): Promise<void> {
  const section = form.closest<HTMLElement>('[data-email-link]');
  const problem = (which: 'key-missing' | 'failed', detail = '') => {
    const p = section?.querySelector<HTMLElement>(`[data-email-link-problem="${which}"]`);
    if (!p) return;
    p.textContent = (p.dataset.template ?? p.textContent ?? '').replace('{problem}', detail);
    p.hidden = false;
    p.tabIndex = -1;
    p.focus();
  };
  section?.querySelectorAll<HTMLElement>('[data-email-link-problem]').forEach((p) => (p.hidden = true));
  const fields = new FormData(form);
  if (form.dataset.endToEnd) {
    const key = linkKeyShown();
    if (!key) return problem('key-missing');
    fields.set('link_key', key);
  }
  const button = form.querySelector<HTMLButtonElement>('[data-email-link-submit]');
  const label = button?.textContent ?? '';
  if (button) {
    button.disabled = true;
    button.textContent = button.dataset.sending ?? label;
  }
  try {
    const body = new URLSearchParams();
    for (const [name, value] of fields) if (typeof value === 'string') body.append(name, value);
    const answer = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
    const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
    const answered = page.querySelector<HTMLElement>('[data-email-link]');
    if (!answered || !section) {
      problem('failed', page.querySelector('main h1')?.textContent?.trim() || `HTTP ${answer.status}`);
      return;
    }
    const shown = document.importNode(answered, true);
    section.replaceWith(shown);
    enhanceEmailLinkForms(shown);
    const first = shown.querySelector<HTMLElement>('[aria-invalid="true"], .notice');
    if (first) {
      if (!first.matches('input, textarea')) first.tabIndex = -1;
      first.focus();
    }
  } catch (e) {
    problem('failed', e instanceof Error ? e.message : String(e));
  } finally {
    if (button?.isConnected) {
      button.disabled = false;
      button.textContent = label;
    }
  }
}
