// The create form: show only the fields of the chosen kind, and disable the others so that an
// empty file field is not sent with a text push. Without scripts every field stays visible.
(function () {
  'use strict';
  var form = document.getElementById('create-form');
  if (!form) return;
  var choices = form.querySelectorAll('[data-kind-choice]');
  function current() {
    for (var i = 0; i < choices.length; i++) if (choices[i].checked) return choices[i].value;
    return 'text';
  }
  function update() {
    var kind = current();
    form.querySelectorAll('[data-kind-panel]').forEach(function (panel) {
      var on = panel.getAttribute('data-kind-panel').split(' ').indexOf(kind) >= 0;
      panel.hidden = !on;
      panel.querySelectorAll('input, textarea').forEach(function (el) { el.disabled = !on; });
    });
    form.querySelectorAll('[data-kind-label]').forEach(function (label) {
      label.hidden = label.getAttribute('data-kind-label') !== kind;
    });
    var payload = document.getElementById('payload');
    if (payload) payload.classList.toggle('short', kind === 'url');
  }
  choices.forEach(function (c) { c.addEventListener('change', update); });
  update();

  // "Destroy after N wrong passphrases" means nothing without a passphrase: offered once one is
  // typed, and disabled otherwise so that it is not sent. A refused value (its error shown) stays.
  var passphrase = document.getElementById('passphrase');
  var needsPassphrase = form.querySelector('[data-needs-passphrase]');
  function updateBurn() {
    if (!passphrase || !needsPassphrase) return;
    var on = passphrase.value !== '' || needsPassphrase.querySelector('[aria-invalid]') !== null;
    needsPassphrase.hidden = !on;
    needsPassphrase.querySelectorAll('input').forEach(function (el) { el.disabled = !on; });
  }
  if (passphrase) passphrase.addEventListener('input', updateBurn);
  updateBurn();
})();
