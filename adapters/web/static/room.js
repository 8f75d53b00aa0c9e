// The room page: shows what the live stream sends and posts the user's
// acts. Everything from the server is data shown with textContent, except
// the "html" fields, which the server rendered from escaped text. The
// sentences it shows are the page's words (scriptWords in words.go),
// which the page carries as JSON.
(function () {
  'use strict';
  var room = document.body.dataset.room;
  var named = document.body.dataset.named === 'yes';
  var byId = function (id) { return document.getElementById(id); };
  var WORDS = JSON.parse(byId('words').textContent);
  var postEls = new Map();
  var cursor = '';
  var countdown = { ms: null, at: 0 };
  var openForm = null;
  var lastState = null;
  var errorsAt = ''; // the status, round and phase the boxes' errors were shown in
  var baseTitle = document.title;
  var shown = false; // whether the first update was shown
  var itemsKey = '';

  // W returns the words of key with {0}, {1}… filled in.
  function W(key) {
    var s = WORDS[key] === undefined ? key : WORDS[key];
    for (var i = 1; i < arguments.length; i++) { s = s.split('{' + (i - 1) + '}').join(String(arguments[i])); }
    return s;
  }

  // plural writes n and the noun's word for that many: "1 round", "2 rounds".
  function plural(n, noun) { return n + ' ' + W(noun + (n === 1 ? '.one' : '.many')); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function newID() {
    var a = new Uint8Array(12);
    crypto.getRandomValues(a);
    return Array.from(a, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }

  function pause(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  // act posts one act; a network failure is retried with the same ID, so
  // the server counts it once. A refusal (4xx) or a server error (5xx)
  // shows its reason in the element with ID errId (or among the notes)
  // and returns false: the caller keeps what the user typed.
  async function act(payload, errId) {
    var errEl = errId ? byId(errId) : null;
    var fail = function (text) {
      if (errEl) { errEl.textContent = text; } else { note(text, 'error'); }
      return false;
    };
    if (!named) { return fail(W('act.noName')); }
    payload.id = newID();
    for (var i = 0; i < 3; i++) {
      var res;
      try {
        res = await fetch('/r/' + room + '/act', {
          method: 'POST', credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload)
        });
      } catch (e) {
        await pause(400 * (i + 1));
        continue;
      }
      if (res.ok) { if (errEl) { errEl.textContent = ''; } return true; }
      var data = await res.json().catch(function () { return {}; });
      return fail(data.error || W('act.refused', res.status));
    }
    return fail(W('act.unreachable'));
  }

  function note(text, cls, html) {
    var li = el('li', 'note ' + (cls || ''));
    if (html) { li.innerHTML = html; } else { li.textContent = text; }
    var list = byId('notes');
    list.prepend(li);
    while (list.children.length > 30) { list.lastChild.remove(); }
  }

  // Posts.
  function renderPost(v) {
    var li = postEls.get(v.id);
    if (!li) {
      li = el('li');
      li.dataset.n = v.n;
      postEls.set(v.id, li);
      var list = byId('posts');
      var after = Array.from(list.children).find(function (c) { return Number(c.dataset.n) > v.n; });
      list.insertBefore(li, after || null);
    }
    li.className = 'post ' + v.kind;
    var head = el('div', 'head');
    head.append(el('span', 'author', v.kind === 'bot' ? W('post.botAuthor') : v.author));
    if (v.kind === 'agent') { head.append(el('span', 'tag', W('post.agentTag'))); }
    head.append(el('span', 'time', v.time));
    var body = el('div', 'body');
    body.innerHTML = v.html;
    li.replaceChildren(head, body);
    if (v.controls) { li.append(renderControls(v.controls)); refreshControls(); }
    return li;
  }

  // The phases in which a control's or a form's verb can be used.
  var verbPhases = {
    write: ['message'], msg: ['message', 'private'], prop: ['proposal'], skip: ['proposal'], choose: ['vote'],
    ballot: ['vote'], abstain: ['vote'], survey: ['survey'], pwrite: ['private']
  };

  // applies reports whether a control or form made for a round and a
  // verb ("rt:<table>:<round>:<verb>") can still be used in state s.
  function applies(id, s) {
    var parts = String(id).split(':');
    if (parts.length !== 4 || !s) { return true; }
    var round = Number(parts[2]), verb = parts[3];
    if (verb === 'status') { return true; }
    if (verb === 'start') { return s.status === 'created' && !!s.waiting && !!s.waiting.may_start; }
    if (s.status === 'ended') { return false; }
    if (verb === 'join') { return !s.seated; }
    if (s.status !== 'running' || round !== s.round) { return false; }
    if (verb.indexOf('self') === 0) { verb = 'survey'; } // a survey's one-click levels
    var phases = verbPhases[verb];
    return !phases || phases.indexOf(s.phase) >= 0;
  }

  // refreshControls disables what no longer applies: old rounds' buttons,
  // Join once seated, the boxes of phases that are not open.
  function refreshControls() {
    var s = lastState;
    document.querySelectorAll('#posts [data-control]').forEach(function (e) {
      e.disabled = !applies(e.dataset.control, s);
    });
    if (!s) { return; }
    var running = s.status === 'running';
    // An error under a box speaks of the phase it was refused in: a new
    // phase (or step) clears it.
    var at = s.status + ' ' + s.round + ' ' + s.phase;
    if (at !== errorsAt) {
      errorsAt = at;
      ['say-error', 'proposal-error', 'ballot-error', 'start-error'].forEach(function (id) { var e = byId(id); if (e) { e.textContent = ''; } });
    }
    var set = function (id, on) { var e = byId(id); if (e) { e.disabled = !on; } };
    set('say', running);
    set('say-send', running);
    byId('say').placeholder = running && s.phase === 'message' ? W('say.message') : running ? (s.proposes ? W('say.other') : W('say.otherNoVote')) :
      s.status === 'created' ? W('say.waiting') : W('say.ended');
    set('proposal-text', running && s.phase === 'proposal');
    set('propose-send', running && s.phase === 'proposal');
    set('ballot-text', running && s.phase === 'vote');
    set('vote-send', running && s.phase === 'vote');
    // On a phone the proposal and ballot boxes wait below the conversation
    // until their phases open.
    byId('propcard').classList.toggle('idle', !(running && (s.phase === 'proposal' || s.phase === 'vote')));
    // A schedule without proposals or a vote (a chatroom, dyads) has no use for the card.
    byId('propcard').hidden = !s.proposes;
    // At a mediation the mediator writes the candidates: people rank them, by the ballot or by text.
    byId('propose').hidden = !!s.mediated;
    byId('prop-h').textContent = s.mediated ? W('card.rank') : W('card.propose');
    document.querySelectorAll('button[data-command=join]').forEach(function (b) { b.hidden = s.seated || s.status === 'ended'; });
    document.querySelectorAll('button[data-command=leave]').forEach(function (b) { b.hidden = !s.seated || s.status === 'ended'; });
    document.querySelectorAll('button[data-command=stop]').forEach(function (b) { b.disabled = s.status === 'ended'; });
    document.querySelectorAll('button[data-command=close], button[data-command=extend]').forEach(function (b) { b.disabled = !running; });
  }

  function renderControls(controls) {
    var box = el('div', 'controls');
    controls.forEach(function (c) {
      if (c.kind === 'button') { box.append(controlButton(c)); }
      else if (c.kind === 'select') { box.append(controlSelect(c)); }
      else { box.append(controlChecks(c)); }
    });
    return box;
  }

  function controlButton(c) {
    var b = el('button', c.primary ? 'primary' : '', c.label);
    b.type = 'button';
    b.dataset.control = c.id;
    b.addEventListener('click', function () { act({ kind: 'action', action: c.id, values: [] }); });
    return b;
  }

  function controlSelect(c) {
    var f = el('form', 'choice');
    var id = 'c-' + newID();
    var label = el('label', '', c.label);
    label.htmlFor = id;
    var s = el('select');
    s.id = id;
    s.append(new Option(W('control.choose'), ''));
    c.options.forEach(function (o) { s.append(new Option(o.label, o.value)); });
    var b = el('button', 'primary', W('control.vote'));
    b.type = 'submit';
    b.dataset.control = s.dataset.control = c.id;
    f.append(label, s, b);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!s.value) { note(W('act.noCandidate'), 'error'); s.focus(); return; }
      act({ kind: 'action', action: c.id, values: [s.value] });
    });
    return f;
  }

  function controlChecks(c) {
    var f = el('form', 'choice');
    var fs = el('fieldset');
    fs.append(el('legend', '', c.label));
    c.options.forEach(function (o) {
      var l = el('label', 'check');
      var i = el('input');
      i.type = 'checkbox';
      i.value = o.value;
      l.append(i, document.createTextNode(' ' + o.label));
      fs.append(l);
    });
    var b = el('button', 'primary', W('control.send'));
    b.type = 'submit';
    b.dataset.control = c.id;
    f.append(fs, b);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var vals = Array.from(fs.querySelectorAll('input:checked'), function (i) { return i.value; });
      if (vals.length < (c.min || 0)) { note(W('act.atLeast', c.min), 'error'); return; }
      act({ kind: 'action', action: c.id, values: vals });
    });
    return f;
  }

  // Private items. A form answers a click; one that arrives with the page
  // (a reload replays the past) or no longer applies is not opened.
  function renderPrivate(p, initial) {
    if (p.kind === 'form') {
      if (!initial && applies(p.form.id, lastState)) { showForm(p.form); }
      return;
    }
    if (p.kind === 'file') {
      var li = el('li', 'note file');
      var a = el('a', '', W('file.download', p.file.name));
      a.href = p.file.url;
      a.download = p.file.name;
      li.append(el('span', '', p.text + ' '), a);
      byId('notes').prepend(li);
      return;
    }
    if (p.waiting && lastState && lastState.status !== 'created') { return; } // said of the start, which is past
    note(p.text, p.waiting ? 'waiting' : '', p.html);
  }

  function showForm(f) {
    openForm = f;
    byId('dialog-title').textContent = f.title;
    byId('dialog-error').textContent = '';
    var box = byId('dialog-fields');
    box.replaceChildren();
    if (f.about) { box.append(el('p', 'about', f.about)); }
    if (f.candidates) {
      var list = el('dl', 'cands');
      f.candidates.forEach(function (c) { list.append(el('dt', '', c.id), el('dd', '', c.text)); });
      box.append(list);
    }
    f.fields.forEach(function (fl) { box.append(formField(fl)); });
    if (f.budget) {
      var b = el('p', 'budget');
      b.id = 'budget';
      b.setAttribute('aria-live', 'polite');
      box.append(b);
      updateBudget();
    }
    var d = byId('dialog');
    if (!d.open) { d.showModal(); }
    var first = box.querySelector('input, select, textarea');
    if (first) { first.focus(); }
  }

  // closeStaleForm closes the dialog whose form no longer applies: its
  // phase has closed, or the table has ended.
  function closeStaleForm(s) {
    var d = byId('dialog');
    if (d.open && openForm && !applies(openForm.id, s)) { d.close(); }
  }

  function formField(fl) {
    if (fl.input === 'levels') { return levelsField(fl); }
    if (fl.input === 'slider') { return sliderField(fl); }
    var wrap = el('div', 'field');
    var id = 'f-' + fl.id;
    var label = el('label', '', fl.label + (fl.optional ? W('form.optional') : ''));
    label.htmlFor = id;
    var input;
    if (fl.input === 'select') {
      input = el('select');
      input.append(new Option(fl.optional ? W('form.none') : W('control.choose'), ''));
      fl.options.forEach(function (o) { input.append(new Option(o.label, o.value)); });
    } else if (fl.input === 'textarea') {
      input = el('textarea');
      input.rows = 4;
    } else {
      input = el('input');
      input.type = fl.input === 'number' ? 'number' : 'text';
      if (fl.input === 'number') { input.min = '0'; input.step = '1'; input.inputMode = 'numeric'; input.addEventListener('input', updateBudget); }
    }
    input.id = id;
    input.name = fl.id;
    if (fl.placeholder) { input.placeholder = fl.placeholder; }
    if (fl.value) { input.value = fl.value; }
    if (fl.maxlen && fl.input !== 'select' && fl.input !== 'number') { input.maxLength = fl.maxlen; }
    input.required = !fl.optional;
    wrap.append(label, input);
    return wrap;
  }

  // levelsField is one button per level of a survey's scale.
  function levelsField(fl) {
    var fs = el('fieldset', 'levels');
    fs.id = 'f-' + fl.id;
    fs.append(el('legend', '', fl.label));
    fl.options.forEach(function (o, i) {
      var l = el('label', 'level');
      var r = el('input');
      r.type = 'radio';
      r.name = fl.id;
      r.value = o.value;
      r.id = 'f-' + fl.id + '-' + i;
      l.append(r, el('span', '', o.label));
      fs.append(l);
    });
    return fs;
  }

  // sliderField is a slider over a survey's scale, with the value it
  // shows; it counts as answered once touched.
  function sliderField(fl) {
    var wrap = el('div', 'field slider');
    var id = 'f-' + fl.id;
    var label = el('label', '', fl.label);
    label.htmlFor = id;
    var input = el('input');
    input.type = 'range';
    input.id = id;
    input.name = fl.id;
    input.min = String(fl.min);
    input.max = String(fl.max);
    input.step = String(fl.step || 'any');
    input.value = String((fl.min + fl.max) / 2);
    var ends = el('div', 'ends');
    ends.append(el('span', '', String(fl.min)), el('span', '', String(fl.max)));
    var out = el('output', 'value', W('form.untouched'));
    out.htmlFor = id;
    var touch = function () {
      input.dataset.touched = 'yes';
      out.textContent = W('form.slider', Number(input.value).toLocaleString());
    };
    ['input', 'change', 'pointerdown', 'keydown'].forEach(function (ev) { input.addEventListener(ev, touch); });
    wrap.append(label, input, ends, out);
    return wrap;
  }

  function pointsUsed() {
    return Array.from(byId('dialog-fields').querySelectorAll('input[type=number]'))
      .reduce(function (s, i) { return s + (parseInt(i.value, 10) || 0); }, 0);
  }

  function updateBudget() {
    var b = byId('budget');
    if (!b || !openForm) { return; }
    var used = pointsUsed();
    b.textContent = W('form.points', used, openForm.budget);
    b.classList.toggle('over', used > openForm.budget);
  }

  // formValues reads the dialog's fields: a slider only once touched, a
  // group of level buttons by the one chosen, a decimal comma as a point.
  function formValues() {
    var fields = {};
    openForm.fields.forEach(function (fl) { fields[fl.id] = ''; });
    byId('dialog-fields').querySelectorAll('input, select, textarea').forEach(function (i) {
      if (i.type === 'radio' && !i.checked) { return; }
      if (i.type === 'range' && i.dataset.touched !== 'yes') { return; }
      var v = i.value.trim();
      if (/^[-+]?\d*,\d+$/.test(v) && i.tagName !== 'TEXTAREA') { v = v.replace(',', '.'); }
      fields[i.name] = v;
    });
    return fields;
  }

  // formProblem is what is wrong with the dialog's values, or ''.
  function formProblem(fields) {
    var f = openForm;
    for (var i = 0; i < f.fields.length; i++) {
      var fl = f.fields[i];
      var v = fields[fl.id];
      if (!fl.optional && !v) {
        return fl.input === 'levels' ? W('form.pick', fl.label) : fl.input === 'slider' ? W('form.move', fl.label) : W('form.fillIn', fl.label);
      }
      if (fl.input === 'number' && v && !/^\d+$/.test(v)) { return W('form.whole', fl.label); }
    }
    if (f.budget && pointsUsed() > f.budget) { return W('form.overBudget', pointsUsed(), f.budget); }
    if (f.unique) {
      var seen = {};
      for (var k in fields) {
        if (fields[k] && seen[fields[k]]) { return W('form.twice', fields[k]); }
        seen[fields[k]] = true;
      }
    }
    return '';
  }

  byId('dialog-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    var fields = formValues();
    var problem = formProblem(fields);
    if (problem) { byId('dialog-error').textContent = problem; return; }
    if (await act({ kind: 'submit', action: openForm.id, fields: fields }, 'dialog-error')) { byId('dialog').close(); }
  });
  byId('dialog-cancel').addEventListener('click', function () { byId('dialog').close(); });

  // State.
  // signalTurn shows a browser notification, when the viewer asked for
  // them and is looking at another tab.
  var wasTurn = false;
  function signalTurn(text) {
    var box = byId('notify');
    if (!box.checked || !document.hidden || !window.Notification || Notification.permission !== 'granted') { return; }
    new Notification(document.title.replace(W('title.turn'), ''), { body: text, tag: 'roundtable-' + room });
  }
  byId('notify').addEventListener('change', function (e) {
    if (!e.target.checked || !window.Notification) { return; }
    Notification.requestPermission().then(function (p) {
      if (p !== 'granted') { e.target.checked = false; note(W('act.notifyBlocked'), 'error'); }
    });
  });

  // todo says what the viewer can do now, and the tab's title says when
  // it is their turn.
  function renderTodo(s) {
    var me = (s.participants || []).find(function (p) { return p.you; });
    var running = s.status === 'running';
    var turn = running && me && !me.acted && me.turn && WORDS['turn.' + s.phase] !== undefined;
    var people = (s.participants || []).filter(function (p) { return p.turn; });
    var others = people.filter(function (p) { return !p.acted && !p.you; }).map(function (p) { return p.name; });
    var todo = s.status === 'ended' ? W('todo.ended') :
      s.status === 'created' ? (s.waiting && s.waiting.may_start ? W('wait.youStart') : W('wait.organiser')) :
      !s.seated ? W('todo.watching') :
      !running ? W('todo.waiting') :
      turn ? W('turn.' + s.phase) :
      me && !me.turn && others.length ? W('todo.notTurn', others.join(', ')) :
      W('todo.done');
    byId('todo').textContent = todo;
    byId('todo').classList.toggle('turn', !!turn);
    var acted = people.filter(function (p) { return p.acted; }).length;
    byId('acted').textContent = running ? W('todo.acted', acted, people.length) : '';
    if (turn && !wasTurn) { signalTurn(todo); }
    wasTurn = !!turn;
    document.title = (turn ? W('title.turn') : '') + baseTitle;
    byId('favicon').href = turn ? '/static/favicon-turn.svg' : '/static/favicon.svg';
  }

  // seatLine names a seat as the room lists it: a bot with its parts.
  function seatLine(p) {
    var name = p.name + (p.you ? W('people.you') : '');
    if (p.agent) { name = W('people.parts', name + W('people.bot'), p.parts && p.parts.length ? p.parts.join(', ') : W('people.watches')); }
    return name;
  }

  // renderWaiting shows a table that waits to start: how it starts, who
  // is in, and the organiser's Start.
  function renderWaiting(s) {
    var w = s.status === 'created' ? s.waiting : null;
    byId('waiting').hidden = !w;
    if (!w) { return; }
    byId('wait-how').innerHTML = w.html; // rendered by the server from escaped text
    var list = byId('wait-people');
    list.replaceChildren();
    (s.participants || []).forEach(function (p) { list.append(el('li', p.agent ? 'bot' : '', seatLine(p))); });
    if (!(s.participants || []).length) { list.append(el('li', 'hint', W('wait.nobody'))); }
    byId('start').hidden = !w.may_start;
  }

  // renderItems shows a panel's items with their documents, once.
  function renderItems(s) {
    var key = JSON.stringify(s.items || []);
    byId('items').hidden = !(s.items && s.items.length);
    if (key === itemsKey) { return; }
    itemsKey = key;
    var list = byId('item-list');
    list.replaceChildren();
    (s.items || []).forEach(function (it) {
      var li = el('li', 'item');
      li.append(el('h3', '', it.title));
      if (it.html) { var d = el('div', 'doc'); d.innerHTML = it.html; li.append(d); } // rendered by the server from escaped text
      list.append(li);
    });
  }

  // started replaces what the notes said while the table waited (how it
  // starts) by the news that it has.
  function started() {
    byId('notes').querySelectorAll('li.waiting').forEach(function (li) { li.remove(); });
    note(W('note.started'));
  }

  var autojoin = document.body.dataset.autojoin === 'yes';

  function renderState(s) {
    if (lastState && lastState.status === 'created' && s.status !== 'created') { started(); }
    lastState = s;
    if (autojoin && !s.seated && s.status !== 'ended') {
      autojoin = false; // once: a refusal is shown, not retried
      act({ kind: 'command', command: 'join', options: {} });
    }
    closeStaleForm(s);
    renderTodo(s);
    renderWaiting(s);
    renderItems(s);
    var phase = s.status === 'running' ? W('status.running', s.round, s.rounds, s.phase) : W('status.' + s.status);
    byId('phase').textContent = phase;
    byId('phase').className = 'badge ' + (s.status === 'running' ? s.phase : s.status);
    countdown.ms = s.remaining_ms || null;
    countdown.at = Date.now();
    tick();
    // a table whose schedule neither proposes nor votes (a chatroom, a panel) has no rule and decides nothing
    // a table where nobody writes (a questionnaire) has no messages to reveal
    byId('rule').textContent = (s.proposes ? W('table.rule', s.rule, s.rule_text) : '') + (s.writes ? W('table.mode', s.mode) + ' ' : '') + plural(s.rounds, 'round') + '.';
    byId('decision').textContent = s.decision || W('table.noneYet');
    byId('decision-line').hidden = byId('history-h').hidden = byId('history').hidden = !s.proposes;
    byId('seat').textContent = s.status === 'ended' ? W('seat.ended') : s.seated ? W('seat.seated') : W('seat.watching');
    byId('brief').hidden = !s.brief;
    byId('brief').innerHTML = s.brief || ''; // rendered by the server from escaped text
    var people = byId('people');
    people.replaceChildren();
    (s.participants || []).forEach(function (p) {
      var li = el('li', p.acted ? 'acted' : '', seatLine(p));
      // only those the phase asks to act: a bot that does not vote is not "waiting" in the vote
      if (s.status === 'running' && p.turn) { li.append(el('span', 'hint', p.acted ? W('people.acted') : W('people.waiting'))); }
      people.append(li);
    });
    var hist = byId('history');
    hist.replaceChildren();
    (s.history || []).forEach(function (r) {
      var li = el('li', '', (r.winner ? W('history.won', r.round, r.winner) : W('history.none', r.round)) + (r.totals ? ' (' + r.totals + ')' : ''));
      if (r.decision) { li.append(el('div', 'hint', W('history.dec', r.decision))); }
      hist.append(li);
    });
    byId('ballot-hint').textContent = ballotHint(s.rule);
    refreshControls();
  }

  function ballotHint(rule) {
    switch (rule) {
      case 'rated': return W('ballot.rated');
      case 'cumulative': return W('ballot.cumulative');
      case 'ranked': case 'borda': case 'irv': return W('ballot.ranked');
      case 'approval': return W('ballot.approval');
    }
    return W('ballot.one');
  }

  // tick runs the countdown; a minute before the phase closes it turns
  // red and, if the viewer has not acted yet, says so once.
  var warned = '';
  function tick() {
    var c = byId('countdown');
    if (countdown.ms === null) { c.textContent = ''; return; }
    var left = Math.max(0, countdown.ms - (Date.now() - countdown.at));
    var s = Math.round(left / 1000);
    c.textContent = W('status.left', Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0'));
    c.classList.toggle('soon', s <= 60);
    var st = lastState, me = st && (st.participants || []).find(function (p) { return p.you; });
    var phase = st ? st.round + ':' + st.phase : '';
    if (s <= 60 && s > 0 && me && !me.acted && warned !== phase) {
      warned = phase;
      note(W('status.soon', st.phase), 'warn');
    }
  }
  setInterval(tick, 1000);

  // The live stream.
  // nearEnd reports whether the newest post is (about) in view.
  function nearEnd() {
    var last = byId('posts').lastElementChild;
    return !last || last.getBoundingClientRect().top < window.innerHeight + 40;
  }

  function showNew(fresh, wasNear) {
    if (!fresh || !shown) { return; }
    if (wasNear) { byId('posts').lastElementChild.scrollIntoView({ block: 'end' }); return; }
    byId('jump').hidden = false;
  }

  function apply(u) {
    var initial = !shown;
    cursor = u.cursor;
    var wasNear = nearEnd();
    var fresh = (u.posts || []).some(function (v) { return !postEls.has(v.id); });
    (u.posts || []).forEach(renderPost);
    showNew(fresh, wasNear);
    shown = true;
    if (u.state) { renderState(u.state); } // first: a form is opened only if it applies to it
    (u.private || []).forEach(function (p) { renderPrivate(p, initial); });
  }

  function connect() {
    var es = new EventSource('/r/' + room + '/live' + (cursor ? '?since=' + encodeURIComponent(cursor) : ''));
    es.addEventListener('update', function (e) {
      byId('conn').textContent = '';
      apply(JSON.parse(e.data));
    });
    es.addEventListener('error', function () {
      byId('conn').textContent = W('act.conn');
      if (es.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    });
  }
  connect();
  byId('jump').addEventListener('click', function () {
    byId('jump').hidden = true;
    byId('posts').lastElementChild.scrollIntoView({ block: 'end' });
  });
  window.addEventListener('scroll', function () { if (nearEnd()) { byId('jump').hidden = true; } }, { passive: true });

  // The user's own acts.
  var say = byId('say');
  byId('composer').addEventListener('submit', async function (e) {
    e.preventDefault();
    var text = say.value.trim();
    if (!text) { return; }
    if (await act({ kind: 'message', text: text }, 'say-error')) { say.value = ''; }
  });
  say.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); byId('composer').requestSubmit(); }
  });
  byId('propose').addEventListener('submit', async function (e) {
    e.preventDefault();
    var t = byId('proposal-text');
    if (!t.value.trim()) { byId('proposal-error').textContent = W('act.noProposal'); return; }
    if (await act({ kind: 'command', command: 'propose', options: { text: t.value.trim() } }, 'proposal-error')) { t.value = ''; }
  });
  byId('textvote').addEventListener('submit', function (e) {
    e.preventDefault();
    var b = byId('ballot-text');
    act({ kind: 'command', command: 'vote', options: { ballot: b.value.trim() } }, 'ballot-error');
  });
  byId('start').addEventListener('click', function () {
    var w = lastState && lastState.waiting;
    if (!w || !w.start_action) { return; }
    act({ kind: 'action', action: w.start_action, values: [] }, 'start-error');
  });
  document.querySelectorAll('[data-command]').forEach(function (b) {
    b.addEventListener('click', function () {
      var opts = {};
      if (b.dataset.format) {
        opts.format = b.dataset.format;
        if (byId('names') && byId('names').checked) { opts.names = 'keep'; }
      }
      if (b.dataset.command === 'stop' && !confirm(W('act.confirmStop'))) { return; }
      if (b.dataset.command === 'close' && !confirm(W('act.confirmClose', lastState ? lastState.phase : ''))) { return; }
      act({ kind: 'command', command: b.dataset.command, options: opts });
    });
  });
  byId('joinlink').addEventListener('focus', function (e) { e.target.select(); });
})();
