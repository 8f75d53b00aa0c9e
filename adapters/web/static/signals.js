// Signals of the room page beyond its tab title and favicon (room.js marks
// the title "(Your turn)" when it is the viewer's turn): an optional
// browser notification of the same moment. The browser is asked for
// permission only when the user presses the button, never on load.
(function () {
  'use strict';
  var btn = document.getElementById('notify');
  var titleEl = document.querySelector('title');
  if (!btn || !titleEl) { return; }
  var marker = '(Your turn)';

  function supported() { return 'Notification' in window; }

  function label() {
    btn.hidden = false;
    if (!supported()) {
      btn.disabled = true;
      btn.textContent = 'This browser cannot notify';
      return;
    }
    var p = Notification.permission;
    btn.disabled = p !== 'default';
    btn.textContent = p === 'granted' ? 'Notifications are on for your turn'
      : p === 'denied' ? 'Notifications are blocked for this site' : 'Notify me when it is my turn';
  }

  btn.addEventListener('click', function () {
    if (!supported()) { return; }
    Promise.resolve(Notification.requestPermission()).then(label, label);
  });

  // notify tells a user who is looking elsewhere that their turn came.
  var wasTurn = document.title.indexOf(marker) === 0;
  function onTitle() {
    var turn = document.title.indexOf(marker) === 0;
    if (turn && !wasTurn && supported() && Notification.permission === 'granted' &&
        (document.visibilityState !== 'visible' || !document.hasFocus())) {
      var todo = document.getElementById('todo');
      new Notification(document.title.slice(marker.length).trim(), {
        body: todo && todo.textContent ? todo.textContent : 'It is your turn.',
        tag: 'roundtable-' + document.body.dataset.room
      });
    }
    wasTurn = turn;
  }
  new MutationObserver(onTitle).observe(titleEl, { childList: true, characterData: true, subtree: true });
  label();
})();
