// fumibako web UI: shared helpers, navigation, dialogs and the live event
// stream. Plain JavaScript, no build step, no external requests.
'use strict';

const F = (window.F = {
  token: document.querySelector('meta[name="fumibako-token"]').content,
  screen: '',
  state: null, // last /api/state
  run: null, // last RunView from the event stream
});

// el builds an element: el('div', {class: 'x', text: '…'}, child, …).
F.el = function (tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
};
F.$ = (id) => document.getElementById(id);

// get fetches JSON.
F.get = async function (url) {
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw F.apiError(r, body);
  return body;
};

// post sends a state-changing request: JSON body and the session token.
F.post = async function (url, body) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Fumibako-Token': F.token },
    body: JSON.stringify(body || {}),
  });
  if (!r.ok) {
    const b = await r.json().catch(() => ({}));
    throw F.apiError(r, b);
  }
  return r;
};
F.postJSON = async (url, body) => (await F.post(url, body)).json();

F.apiError = function (r, body) {
  const e = new Error(body.message || body.error || r.status + ' ' + r.statusText);
  e.userMessage = body.message || '';
  e.status = r.status;
  e.body = body;
  return e;
};

// status writes the status bar (reference/gui.md §9: input errors go under
// the field or in the status bar, never in a dialog).
F.status = function (text, isError) {
  const s = F.$('statusbar');
  s.textContent = text || '';
  s.title = text || '';
  s.classList.toggle('error', !!isError);
};

// Navigation.
F.show = function (name) {
  F.screen = name;
  for (const s of document.querySelectorAll('.screen')) s.hidden = s.id !== 'screen-' + name;
  for (const b of document.querySelectorAll('.nav-item')) b.classList.toggle('active', b.dataset.screen === name);
  if (name === 'index' && F.index) F.index.refresh();
  if (name === 'search' && F.search) F.search.shown();
  if (name === 'settings' && F.settings) F.settings.refresh();
};

// dialog shows a modal built by build(box, close) and resolves with what
// close is given. Esc and the backdrop close it with null; the default
// (focused) button is the one marked autofocus (reference/gui.md §9:
// ［キャンセル］ for dangerous or slow actions).
F.dialog = function (build) {
  return new Promise((resolve) => {
    const back = F.$('dialog-backdrop');
    const box = F.$('dialog');
    box.replaceChildren();
    const prev = document.activeElement;
    let done = false;
    const close = (v) => {
      if (done) return;
      done = true;
      back.hidden = true;
      box.replaceChildren();
      document.removeEventListener('keydown', onKey, true);
      F.dialogClose = null;
      if (prev && prev.focus) prev.focus();
      resolve(v);
    };
    const onKey = (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close(null);
      }
    };
    F.dialogClose = close;
    build(box, close);
    back.hidden = false;
    document.addEventListener('keydown', onKey, true);
    const f = box.querySelector('[autofocus]') || box.querySelector('button');
    if (f) f.focus();
  });
};

// confirm is the reference's confirm dialog: a one-line question, fact
// rows (✗ lost, ✓ kept, → next), buttons named after the action.
F.confirm = function ({ title, facts, note, ok, danger }) {
  return F.dialog((box, close) => {
    box.append(F.el('h2', { id: 'dialog-title', text: title }));
    if (facts && facts.length) {
      const ul = F.el('ul', { class: 'facts' });
      for (const [kind, text] of facts) {
        const mark = { lost: '✗ ', kept: '✓ ', next: '→ ' }[kind];
        ul.append(F.el('li', { class: 'fact-' + kind, text: mark + text }));
      }
      box.append(ul);
    }
    if (note) box.append(F.el('p', { class: 'remark', text: note }));
    box.append(
      F.el('div', { class: 'buttons' },
        F.el('button', { type: 'button', class: danger ? 'danger' : 'primary', id: 'dialog-ok', text: ok, onclick: () => close(true) }),
        F.el('button', { type: 'button', id: 'dialog-cancel', autofocus: true, text: 'キャンセル', onclick: () => close(false) })));
  });
};

// copyText puts text on the clipboard (127.0.0.1 is a secure context, so
// the async API works; the textarea is the fallback).
F.copyText = async function (text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const ta = F.el('textarea', {});
    ta.value = text;
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
};

// download saves a Blob under a file name.
F.download = function (blob, name) {
  const url = URL.createObjectURL(blob);
  const a = F.el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
};

// The event stream: RunView snapshots and log lines (internal/web
// events.go). Index page and nav badge listen.
F.events = function () {
  let next = 0;
  const connect = () => {
    const es = new EventSource('/api/events?log=' + next);
    es.addEventListener('state', (e) => {
      const v = JSON.parse(e.data);
      const prev = F.run;
      F.run = v;
      F.badge();
      if (F.index) F.index.onRun(v, prev);
      if (F.search) F.search.onRun(v, prev);
    });
    es.addEventListener('log', (e) => {
      const lines = JSON.parse(e.data);
      if (lines.length) next = lines[lines.length - 1].seq + 1;
      if (F.index) F.index.onLog(lines);
    });
    es.onerror = () => {
      es.close();
      setTimeout(connect, 2000);
    };
  };
  connect();
};

// badge is the nav badge next to ［インデックス管理］: `● 66%` while
// running, `中断`, or the index table's own word for failures, `一部失敗
// N 件` (searchable) or `エラー` (nothing ingested) (reference/gui.md
// §2.2; issue 32: the badge said 失敗 where the table said 一部失敗).
F.badge = function () {
  const b = F.$('nav-badge');
  const v = F.run;
  const st = F.state;
  b.className = 'badge';
  if (v && v.running) {
    b.textContent = '● ' + (v.percent >= 0 ? Math.floor(v.percent) + '%' : '');
    b.classList.add('run');
  } else if (st && st.interrupted > 0) {
    b.textContent = '中断';
  } else if (st && st.failures > 0) {
    const error = (st.folders || []).some((f) => f.status === 'エラー');
    b.textContent = error ? 'エラー' : `一部失敗 ${st.failures} 件`;
    b.classList.add('fail');
  } else {
    b.hidden = true;
    return;
  }
  b.hidden = false;
};

// Keyboard (reference/gui.md §7): Ctrl+F goes to the search box.
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && (e.key === 'f' || e.key === 'F')) {
    if (!F.$('dialog-backdrop').hidden) return;
    e.preventDefault();
    if (F.screen !== 'search') F.show('search');
    const q = F.$('q');
    q.focus();
    q.select();
  }
});

document.addEventListener('DOMContentLoaded', async () => {
  for (const b of document.querySelectorAll('.nav-item')) b.addEventListener('click', () => F.show(b.dataset.screen));
  for (const m of [F.index, F.preview, F.results, F.search, F.settings]) if (m) m.init();
  F.events();
  // First screen (reference/gui.md §1): index management after an
  // interrupted run or before any index exists, the search otherwise.
  try {
    F.state = await F.get('/api/state');
  } catch (e) {
    F.status(e.message, true);
  }
  const st = F.state;
  F.badge();
  F.show(!st || st.interrupted > 0 || !st.hasIndex ? 'index' : 'search');
  document.body.dataset.ready = '1';
});
