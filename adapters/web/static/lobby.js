// The lobby: choosing a preset sets the create form's fields to the
// preset's settings (its rule, rounds, durations, mode and agents), so
// what the form shows is what the table gets; the organiser may change
// any field afterwards.
(function () {
  'use strict';
  var preset = document.getElementById('preset');
  if (!preset) { return; }
  var form = preset.form;

  function setField(name, value) {
    var els = form.querySelectorAll('[name="' + name + '"]');
    els.forEach(function (e) {
      if (e.type === 'radio') { e.checked = e.value === value; } else { e.value = value; }
    });
  }

  preset.addEventListener('change', function () {
    var opt = preset.selectedOptions[0];
    if (!opt || !opt.dataset.settings) { return; }
    var s = JSON.parse(opt.dataset.settings);
    Object.keys(s.fields).forEach(function (k) { setField(k, s.fields[k]); });
    form.querySelectorAll('input[name="agents"]').forEach(function (box) {
      box.checked = s.agents.indexOf(box.value) >= 0;
    });
  });
})();
