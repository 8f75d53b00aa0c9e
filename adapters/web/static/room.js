// The room page: shows what the live stream sends and posts the user's
// acts. Everything from the server is data shown with textContent, except
// the "html" fields, which the server rendered from escaped text.
(function () {
  'use strict';
  var room = document.body.dataset.room;
  var named = document.body.dataset.named === 'yes';
  var byId = function (id) { return document.getElementById(id); };
  var postEls = new Map();
  var cursor = '';
  var countdown = { ms: null, at: 0 };
  var openForm = null;
  var lastState = null;
  var baseTitle = document.title;
  var shown = false; // whether the first update was shown

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
    if (!named) { return fail('Choose a name first.'); }
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
      return fail(data.error || ('Refused (' + res.status + ')'));
    }
    return fail('The server cannot be reached; your action may not be recorded.');
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
    head.append(el('span', 'author', v.kind === 'bot' ? 'roundtable' : v.author));
    if (v.kind === 'agent') { head.append(el('span', 'tag', 'bot agent')); }
    head.append(el('span', 'time', v.time));
    var body = el('div', 'body');
    body.innerHTML = v.html;
    li.replaceChildren(head, body);
    if (v.controls) { li.append(renderControls(v.controls)); refreshControls(); }
    return li;
  }

  // applies reports whether a control made for a round and a verb
  // ("rt:<table>:<round>:<verb>") can still be used in state s.
  function applies(id, s) {
    var parts = String(id).split(':');
    if (parts.length !== 4 || !s) { return true; }
    var round = Number(parts[2]), verb = parts[3];
    if (verb === 'status') { return true; }
    if (s.status === 'ended') { return false; }
    if (verb === 'join') { return !s.seated; }
    if (s.status !== 'running' || round !== s.round) { return false; }
    if (verb.indexOf('self') === 0) { verb = 'survey'; } // a survey's one-click levels
    var phase = { write: 'message', msg: 'message', prop: 'proposal', skip: 'proposal', choose: 'vote', ballot: 'vote', abstain: 'vote', survey: 'survey', pwrite: 'private' }[verb];
    return !phase || phase === s.phase;
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
    var set = function (id, on) { var e = byId(id); if (e) { e.disabled = !on; } };
    set('say', running);
    set('say-send', running);
    byId('say').placeholder = running && s.phase === 'message' ? 'Write to the table (Enter sends, Shift+Enter for a new line)' :
      running ? 'Messages are taken in the message phase; commands such as /roundtable vote B work here.' : 'The table has ended.';
    set('proposal-text', running && s.phase === 'proposal');
    set('propose-send', running && s.phase === 'proposal');
    set('ballot-text', running && s.phase === 'vote');
    set('vote-send', running && s.phase === 'vote');
    // On a phone the proposal and ballot boxes wait below the conversation
    // until their phases open.
    byId('propcard').classList.toggle('idle', !(running && (s.phase === 'proposal' || s.phase === 'vote')));
    // A schedule without proposals or a vote (a chatroom, dyads) has no use for the card.
    byId('propcard').hidden = !s.proposes;
    document.querySelectorAll('button[data-command=join]').forEach(function (b) { b.hidden = s.seated || s.status === 'ended'; });
    document.querySelectorAll('button[data-command=leave]').forEach(function (b) { b.hidden = !s.seated || s.status === 'ended'; });
    document.querySelectorAll('button[data-command=stop]').forEach(function (b) { b.disabled = s.status === 'ended'; });
    document.querySelectorAll('button[data-command=close]').forEach(function (b) { b.disabled = !running; });
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
    s.append(new Option('Choose…', ''));
    c.options.forEach(function (o) { s.append(new Option(o.label, o.value)); });
    var b = el('button', 'primary', 'Vote');
    b.type = 'submit';
    b.dataset.control = s.dataset.control = c.id;
    f.append(label, s, b);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!s.value) { note('Choose a candidate first.', 'error'); s.focus(); return; }
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
    var b = el('button', 'primary', 'Send');
    b.type = 'submit';
    b.dataset.control = c.id;
    f.append(fs, b);
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var vals = Array.from(fs.querySelectorAll('input:checked'), function (i) { return i.value; });
      if (vals.length < (c.min || 0)) { note('Choose at least ' + c.min + '.', 'error'); return; }
      act({ kind: 'action', action: c.id, values: vals });
    });
    return f;
  }

  // Private items.
  function renderPrivate(p) {
    if (p.kind === 'form') { showForm(p.form); return; }
    if (p.kind === 'file') {
      var li = el('li', 'note file');
      var a = el('a', '', 'Download ' + p.file.name);
      a.href = p.file.url;
      a.download = p.file.name;
      li.append(el('span', '', p.text + ' '), a);
      byId('notes').prepend(li);
      return;
    }
    note(p.text, '', p.html);
  }


  function showForm(f) {
    openForm = f;
    byId('dialog-title').textContent = f.title;
    byId('dialog-error').textContent = '';
    var box = byId('dialog-fields');
    box.replaceChildren();
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

  function formField(fl) {
    var wrap = el('div', 'field');
    var id = 'f-' + fl.id;
    var label = el('label', '', fl.label + (fl.optional ? ' (optional)' : ''));
    label.htmlFor = id;
    var input;
    if (fl.input === 'select') {
      input = el('select');
      input.append(new Option(fl.optional ? '(none)' : 'Choose…', ''));
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

  function pointsUsed() {
    return Array.from(byId('dialog-fields').querySelectorAll('input[type=number]'))
      .reduce(function (s, i) { return s + (parseInt(i.value, 10) || 0); }, 0);
  }

  function updateBudget() {
    var b = byId('budget');
    if (!b || !openForm) { return; }
    var used = pointsUsed();
    b.textContent = 'Points used: ' + used + ' of ' + openForm.budget;
    b.classList.toggle('over', used > openForm.budget);
  }

  // formProblem is what is wrong with the dialog's values, or ''.
  function formProblem(fields) {
    var f = openForm;
    for (var i = 0; i < f.fields.length; i++) {
      var fl = f.fields[i];
      var v = fields[fl.id];
      if (!fl.optional && !v) { return 'Please fill in: ' + fl.label; }
      if (fl.input === 'number' && v && !/^\d+$/.test(v)) { return fl.label + ': a whole number of 0 or more'; }
    }
    if (f.budget && pointsUsed() > f.budget) { return 'You used ' + pointsUsed() + ' points; you have ' + f.budget + '.'; }
    if (f.unique) {
      var seen = {};
      for (var k in fields) {
        if (fields[k] && seen[fields[k]]) { return 'Candidate ' + fields[k] + ' is ranked twice.'; }
        seen[fields[k]] = true;
      }
    }
    return '';
  }

  byId('dialog-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    var fields = {};
    byId('dialog-fields').querySelectorAll('input, select, textarea').forEach(function (i) { fields[i.name] = i.value.trim(); });
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
    new Notification(document.title.replace(/^\(Your turn\) /, ''), { body: text, tag: 'roundtable-' + room });
  }
  byId('notify').addEventListener('change', function (e) {
    if (!e.target.checked || !window.Notification) { return; }
    Notification.requestPermission().then(function (p) {
      if (p !== 'granted') { e.target.checked = false; note('Notifications are blocked in this browser.', 'error'); }
    });
  });

  // todo says what the viewer can do now, and the tab's title says when
  // it is their turn.
  function renderTodo(s) {
    var me = (s.participants || []).find(function (p) { return p.you; });
    var running = s.status === 'running';
    var asks = { message: 'Your turn: write your message.', proposal: 'Your turn: propose, or skip.', vote: 'Your turn: vote.',
      survey: 'Your turn: answer the survey.', 'private': 'Your turn: write your private message.' };
    var turn = running && me && !me.acted && me.turn && !!asks[s.phase];
    var people = (s.participants || []).filter(function (p) { return p.turn; });
    var others = people.filter(function (p) { return !p.acted && !p.you; }).map(function (p) { return p.name; });
    var todo = s.status === 'ended' ? 'The table has ended.' :
      !s.seated ? 'You are watching: press Join to take a seat.' :
      !running ? 'Waiting for the table to start.' :
      turn ? asks[s.phase] :
      me && !me.turn && others.length ? 'Not your turn in this phase: waiting for ' + others.join(', ') + '.' :
      'Done for this phase: waiting for the others.';
    byId('todo').textContent = todo;
    byId('todo').classList.toggle('turn', !!turn);
    var acted = people.filter(function (p) { return p.acted; }).length;
    byId('acted').textContent = running ? acted + ' of ' + people.length + ' acted' : '';
    if (turn && !wasTurn) { signalTurn(todo); }
    wasTurn = !!turn;
    document.title = (turn ? '(Your turn) ' : '') + baseTitle;
    byId('favicon').href = turn ? '/static/favicon-turn.svg' : '/static/favicon.svg';
  }

  var autojoin = document.body.dataset.autojoin === 'yes';

  function renderState(s) {
    lastState = s;
    if (autojoin && !s.seated && s.status !== 'ended') {
      autojoin = false; // once: a refusal is shown, not retried
      act({ kind: 'command', command: 'join', options: {} });
    }
    renderTodo(s);
    var phase = s.status === 'running' ? ('Round ' + s.round + ' of ' + s.rounds + ' · ' + s.phase + ' phase') : s.status;
    byId('phase').textContent = phase;
    byId('phase').className = 'badge ' + (s.status === 'running' ? s.phase : s.status);
    countdown.ms = s.remaining_ms || null;
    countdown.at = Date.now();
    tick();
    // a table whose schedule neither proposes nor votes (a chatroom, a panel) has no rule and decides nothing
    byId('rule').textContent = (s.proposes ? 'Rule: ' + s.rule + '. ' + s.rule_text + ' ' : '') + 'Messages: ' + s.mode + '.';
    byId('decision').textContent = s.decision || 'none yet';
    byId('decision-line').hidden = byId('history-h').hidden = byId('history').hidden = !s.proposes;
    byId('seat').textContent = s.status === 'ended' ? 'The table has ended.' :
      s.seated ? 'You have a seat at this table.' : 'You are watching. Press Join to take a seat.';
    var people = byId('people');
    people.replaceChildren();
    (s.participants || []).forEach(function (p) {
      var li = el('li', p.acted ? 'acted' : '', p.name + (p.agent ? ' (bot)' : '') + (p.you ? ' (you)' : ''));
      if (s.status === 'running') { li.append(el('span', 'hint', p.acted ? ' ✓ acted' : ' … waiting')); }
      people.append(li);
    });
    var hist = byId('history');
    hist.replaceChildren();
    (s.history || []).forEach(function (r) {
      var li = el('li', '', 'Round ' + r.round + ': ' + (r.winner ? ('accepted ' + r.winner) : 'no winner') + (r.totals ? ' (' + r.totals + ')' : ''));
      if (r.decision) { li.append(el('div', 'hint', 'Decision: ' + r.decision)); }
      hist.append(li);
    });
    byId('ballot-hint').textContent = ballotHint(s.rule);
    refreshControls();
  }

  function ballotHint(rule) {
    switch (rule) {
      case 'rated': return 'Rated: A=5 B=2 … (1 to 5 for every candidate)';
      case 'cumulative': return 'Cumulative: A=2 B=1 (at most as many points as candidates)';
      case 'ranked': case 'borda': case 'irv': return 'Ranked: C > A > B (best first)';
      case 'approval': return 'Approval: A C (every candidate you approve)';
    }
    return 'One candidate, e.g. B, or abstain';
  }

  // tick runs the countdown; a minute before the phase closes it turns
  // red and, if the viewer has not acted yet, says so once.
  var warned = '';
  function tick() {
    var c = byId('countdown');
    if (countdown.ms === null) { c.textContent = ''; return; }
    var left = Math.max(0, countdown.ms - (Date.now() - countdown.at));
    var s = Math.round(left / 1000);
    c.textContent = Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0') + ' left';
    c.classList.toggle('soon', s <= 60);
    var st = lastState, me = st && (st.participants || []).find(function (p) { return p.you; });
    var phase = st ? st.round + ':' + st.phase : '';
    if (s <= 60 && s > 0 && me && !me.acted && warned !== phase) {
      warned = phase;
      note('One minute left in the ' + st.phase + ' phase: act now if you want to.', 'warn');
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
    cursor = u.cursor;
    var wasNear = nearEnd();
    var fresh = (u.posts || []).some(function (v) { return !postEls.has(v.id); });
    (u.posts || []).forEach(renderPost);
    showNew(fresh, wasNear);
    shown = true;
    (u.private || []).forEach(renderPrivate);
    if (u.state) { renderState(u.state); }
  }

  function connect() {
    var es = new EventSource('/r/' + room + '/live' + (cursor ? '?since=' + encodeURIComponent(cursor) : ''));
    es.addEventListener('update', function (e) {
      byId('conn').textContent = '';
      apply(JSON.parse(e.data));
    });
    es.addEventListener('error', function () {
      byId('conn').textContent = 'Reconnecting…';
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
    if (!t.value.trim()) { byId('proposal-error').textContent = 'Write a proposal first.'; return; }
    if (await act({ kind: 'command', command: 'propose', options: { text: t.value.trim() } }, 'proposal-error')) { t.value = ''; }
  });
  byId('textvote').addEventListener('submit', function (e) {
    e.preventDefault();
    var b = byId('ballot-text');
    act({ kind: 'command', command: 'vote', options: { ballot: b.value.trim() } }, 'ballot-error');
  });
  document.querySelectorAll('[data-command]').forEach(function (b) {
    b.addEventListener('click', function () {
      var opts = {};
      if (b.dataset.format) {
        opts.format = b.dataset.format;
        if (byId('names') && byId('names').checked) { opts.names = 'keep'; }
      }
      if (b.dataset.command === 'stop' && !confirm('Stop the table now? Its decision so far becomes its output.')) { return; }
      if (b.dataset.command === 'close' && !confirm('Close the ' + (lastState ? lastState.phase + ' ' : '') + 'phase now, before its deadline?')) { return; }
      act({ kind: 'command', command: b.dataset.command, options: opts });
    });
  });
  byId('joinlink').addEventListener('focus', function (e) { e.target.select(); });
})();
