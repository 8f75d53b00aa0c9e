// The lobby: choosing a preset sets the create form's fields to the
// preset's settings (its rule, rounds, durations, mode, how it starts, its
// items and agents), so what the form shows is what the table gets; the
// organiser may change any field afterwards. Only the bots that can sit
// at the preset's tables are offered, each saying what it does there;
// the Facilitator's vote is a choice only at a table that votes.
(function () {
  'use strict';
  var preset = document.getElementById('preset');
  var form = document.querySelector('form[action="/start"]');
  if (!form) { return; }
  var order = ['speaks', 'proposes', 'votes', 'judges'];
  var current = null; // the chosen preset's settings

  function setField(name, value) {
    form.querySelectorAll('[name="' + name + '"]').forEach(function (e) {
      if (e.type === 'radio') { e.checked = e.value === value; }
      else if (e.type === 'checkbox') { e.checked = e.value === value; }
      else { e.value = value; }
    });
  }

  // partsOf is what agent name does with the chosen settings, the
  // Facilitator voting if its box is ticked.
  function partsOf(name, parts) {
    var box = form.querySelector('input[name=facilitator_votes]');
    var label = form.querySelector('label.agent[data-agent="' + CSS.escape(name) + '"]');
    if (label && label.dataset.votesIfAsked === 'yes' && current && current.votes) {
      var voting = box && box.checked;
      parts = parts.filter(function (p) { return p !== 'votes'; });
      if (voting) { parts.push('votes'); }
      parts.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
    }
    return parts;
  }

  // showOffer shows the bots the chosen settings offer, with their parts,
  // and hides (and unticks) the others.
  function showOffer() {
    var offered = {};
    (current.offer || []).forEach(function (o) { offered[o.name] = o.parts || []; });
    form.querySelectorAll('label.agent').forEach(function (label) {
      var name = label.dataset.agent, box = label.querySelector('input');
      var on = Object.prototype.hasOwnProperty.call(offered, name);
      label.hidden = !on;
      box.disabled = !on;
      if (!on) { box.checked = false; }
      var parts = on ? partsOf(name, offered[name].slice()) : [];
      label.querySelector('.parts').textContent = parts.length ? '(' + parts.join(', ') + ')' : on ? '(only watches)' : '';
      var sub = form.querySelector('[data-facilitator="' + CSS.escape(name) + '"]');
      if (sub) { sub.hidden = !(on && current.votes); }
    });
    var items = document.getElementById('items');
    if (items) { items.hidden = !current.rates; }
  }

  function settingsOf(opt) { return opt && opt.dataset.settings ? JSON.parse(opt.dataset.settings) : null; }

  current = settingsOf(form); // the server's defaults, without a preset
  if (preset) {
    current = settingsOf(preset.selectedOptions[0]) || current;
    var names = {}; // every field some settings set: a preset that leaves one out clears it
    Array.from(preset.options).forEach(function (o) {
      var s = settingsOf(o);
      if (s) { Object.keys(s.fields).forEach(function (k) { names[k] = true; }); }
    });
    preset.addEventListener('change', function () {
      var s = settingsOf(preset.selectedOptions[0]);
      if (!s) { return; }
      current = s;
      Object.keys(names).forEach(function (k) { if (k !== 'title' || s.fields[k]) { setField(k, s.fields[k] || ''); } });
      if (!s.fields.start) { setField('start', 'organiser'); }
      form.querySelectorAll('input[name="agents"]').forEach(function (box) {
        box.checked = s.agents.indexOf(box.value) >= 0;
      });
      showOffer();
    });
  }
  var fv = form.querySelector('input[name=facilitator_votes]');
  if (fv) { fv.addEventListener('change', function () { if (current) { showOffer(); } }); }
  if (current) { showOffer(); }

  // A number of seats or a time chooses its way of starting.
  [['seats', 'full'], ['start_at', 'at']].forEach(function (p) {
    var input = form.querySelector('[name=' + p[0] + ']');
    if (input) { input.addEventListener('input', function () { setField('start', p[1]); }); }
  });
})();
