// Progressive enhancement for the server-rendered pages (the CSP forbids inline scripts).
// Copy buttons: data-copy="<id>" copies that element's text. Toggles: data-toggle="<id>"
// hides or shows that element's text. Both stay hidden when scripts do not run. What they say
// comes from the page (data-copied, data-copy-failed, data-show-label, data-hide-label), in the
// page's language.
(function () {
  'use strict';
  function status(button, text) {
    var row = button.closest('.row');
    var out = row && row.querySelector('[data-copy-status]');
    if (out) out.textContent = text;
  }
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      var text = target.textContent || '';
      var copied = button.getAttribute('data-copied') || 'Copied.';
      var done = function () { status(button, copied); };
      var failed = function () { status(button, fallbackCopy(text) ? copied : button.getAttribute('data-copy-failed') || ''); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, failed);
      else failed();
    });
  });
  // Links that look and act as buttons (role="button") are pressed with Space too, as buttons are.
  document.querySelectorAll('a[role="button"]').forEach(function (link) {
    link.addEventListener('keydown', function (event) {
      if (event.key === ' ' || event.key === 'Spacebar') { event.preventDefault(); link.click(); }
    });
  });
  document.querySelectorAll('[data-toggle]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-toggle'));
      if (!target) return;
      var hide = !target.classList.contains('concealed');
      target.classList.toggle('concealed', hide);
      target.setAttribute('aria-hidden', hide ? 'true' : 'false');
      button.setAttribute('aria-pressed', hide ? 'true' : 'false');
      button.textContent = button.getAttribute(hide ? 'data-show-label' : 'data-hide-label') || (hide ? 'Show' : 'Hide');
    });
  });
})();
