// Cohort's chat panel (docs/server.md, "Chat"), on the game page and the lobby: a room's
// lines, followed over the room's WebSocket, a box to write in when the server says this
// reader may post, and the on/off switch. The switch is the account's (stored by the server,
// which then sends this reader no lines) or, for an anonymous reader, this browser's
// (localStorage). Off: no lines, no box, no socket. Every line is shown as text (text nodes,
// never HTML).
'use strict';

(function () {
  const OFF_KEY = 'cohort-chat-off';

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith('on') && typeof v === 'function') e[k] = v;
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    // Strings become text nodes (Element.append): a line's text is never parsed as HTML.
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }
  const call = (...a) => window.CohortAccount.call(...a);
  const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');

  function localOff() {
    try { return localStorage.getItem(OFF_KEY) === '1'; } catch { return false; }
  }
  function setLocalOff(off) {
    try { if (off) localStorage.setItem(OFF_KEY, '1'); else localStorage.removeItem(OFF_KEY); } catch { /* private mode */ }
  }

  // Who wrote a line: the account's name, a player's side, or both.
  function author(line) {
    if (line.by && line.seat) return `${line.by} (${cap(line.seat)})`;
    return line.by || cap(line.seat) || 'someone';
  }

  // Mount a chat panel in `box`. `room`: { title, url (history and posting), ws (the socket's
  // path), body (extra fields of a post, e.g. a seat's token), query (the history's and
  // socket's query string), hint (shown when this reader may only read) }; `user`: the
  // logged-in account's name or null.
  async function mount(box, room, user) {
    let on = true;
    if (user) {
      try { on = (await call('GET', '/api/account/settings')).chat; } catch { on = true; }
    } else {
      on = !localOff();
    }
    let ws = null;
    let lines = [];
    let canPost = false;
    let closed = false;
    const list = el('ul', { class: 'chat-lines', 'data-testid': 'chat-lines', 'aria-live': 'polite' });
    const input = el('input', { type: 'text', maxlength: '500', 'data-testid': 'chat-input', 'aria-label': 'chat message', placeholder: 'Say something' });
    const err = el('p', { class: 'error', 'data-testid': 'chat-error', role: 'alert' });
    const send = el('button', { type: 'submit', class: 'small', 'data-testid': 'chat-send' }, 'Send');
    const form = el('form', { class: 'chat-form', 'data-testid': 'chat-form' }, input, send);
    const toggle = el('input', { type: 'checkbox', 'data-testid': 'chat-switch' });
    const body = el('div', { class: 'chat-body' });
    const panel = el('section', { class: 'chat', 'data-testid': 'chat', 'data-room': room.ws },
      el('div', { class: 'chat-head' }, el('h2', {}, room.title), el('label', { class: 'chat-toggle' }, toggle, ' chat on')),
      body);
    box.replaceChildren(panel);

    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const text = input.value;
      if (!text.trim()) return;
      err.textContent = '';
      send.disabled = true;
      try {
        const line = await call('POST', room.url, { ...room.body, text });
        input.value = '';
        add(line);
      } catch (e) { err.textContent = e.message; }
      send.disabled = false;
      input.focus();
    };
    toggle.onchange = async () => {
      const want = toggle.checked;
      if (user) {
        try { await call('POST', '/api/account/settings', { chat: want }); } catch (e) { toggle.checked = !want; err.textContent = e.message; return; }
      } else {
        setLocalOff(!want);
      }
      on = want;
      lines = [];
      render();
      if (on) connect(); else disconnect();
    };

    function add(line) {
      if (!on || lines.some((l) => l.id === line.id)) return;
      lines.push(line);
      if (lines.length > 200) lines = lines.slice(-200);
      list.append(lineItem(line));
      list.scrollTop = list.scrollHeight;
    }
    function lineItem(line) {
      return el('li', { 'data-testid': 'chat-line', 'data-line': line.id, class: line.seat ? `seat-${line.seat}` : '' },
        el('b', { class: 'chat-author' }, author(line)), ': ', el('span', { class: 'chat-text' }, line.text));
    }
    function render() {
      panel.dataset.chat = on ? 'on' : 'off';
      toggle.checked = on;
      if (!on) {
        body.replaceChildren(el('p', { class: 'hint', 'data-testid': 'chat-off' }, 'Chat is off.'));
        return;
      }
      list.replaceChildren(...lines.map(lineItem));
      body.replaceChildren(list, canPost ? form : el('p', { class: 'hint', 'data-testid': 'chat-readonly' }, room.hint), err);
      list.scrollTop = list.scrollHeight;
    }

    function disconnect() {
      if (ws) { const w = ws; ws = null; w.onclose = null; w.close(); }
    }
    function connect() {
      if (closed || !on || ws) return;
      const proto = location.protocol === 'https:' ? 'wss' : 'ws';
      let socket;
      try { socket = new WebSocket(`${proto}://${location.host}${room.ws}${room.query || ''}`); } catch { setTimeout(connect, 2000); return; }
      ws = socket;
      let opened = false;
      socket.onopen = () => { opened = true; };
      socket.onmessage = (m) => {
        let msg;
        try { msg = JSON.parse(m.data); } catch { return; }
        if (!msg || socket !== ws) return;
        if (msg.type === 'history') {
          canPost = Boolean(msg.can_post);
          // The account's switch changed elsewhere (another tab): follow it.
          if (user && msg.chat === false) { on = false; lines = []; render(); disconnect(); return; }
          lines = msg.lines || [];
          render();
        } else if (msg.type === 'line' && msg.line) {
          add(msg.line);
        }
      };
      socket.onclose = () => {
        if (socket !== ws) return;
        ws = null;
        setTimeout(connect, opened ? 500 : 2000);
      };
    }
    render();
    if (on) connect();
    return { close() { closed = true; disconnect(); } };
  }

  window.CohortChat = { mount };
}());
