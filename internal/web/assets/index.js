// The index page (reference/gui.md §2, §3): crawl folders, the update
// banner with live progress, the confirmation, the failure list, the log.
'use strict';

F.index = (() => {
  const $ = F.$;
  const el = F.el;
  let failedSeen = -1;
  let failuresAt = 0;
  let failuresTimer = 0;
  let confirmShown = null; // the ConfirmView the open dialog shows
  let stopAsking = false; // the stop dialog is open
  let countsAt = 0; // when the list was last reloaded during a run
  const COUNTS_MS = 2000; // the list's counts are reloaded this often during a run

  // Texts from reference/gui.md (older 取り込み wording where it gives one).
  const T = {
    busy: (what) => `インデックス作成中はインデックスを${what}できません。インデックス作成が終わるまでお待ちください（［中止］で止められます）。`,
    interrupted: (n) => `インデックス作成を中断しました（残り ${n} 件）`,
    folderOk: '✓ フォルダがあります',
    folderMissing: '✗ フォルダが見つかりません',
    folderChecking: '… フォルダを確認しています',
    filesTip: (f) => `済 ${f.done} 件 ・ 未取り込み ${f.pending} 件 ・ 失敗 ${f.failed} 件`,
    failuresTitle: (n) => `⚠ 取り込みに失敗したファイル ${n} 件`,
    ignoredTitle: (n) => `無視している失敗 ${n} 件（インデックスの状態に数えません）`,
    registered: (n) => `登録済み: ${n} フォルダ`,
    total: (n) => `合計: ${n} ファイル`,
  };
  const statusClass = { 最新: 's-fresh', 取り込み不要: 's-fresh', 取り込み待ち: 's-stale', エラー: 's-error', 未作成: 's-none', 取り込み中: 's-running' };
  const statusMark = { 最新: '✓ ', 取り込み不要: '✓ ', 取り込み待ち: '⚠ ', エラー: '✗ ', 未作成: '－ ', 取り込み中: '● ' };
  // The index's part of the running run (runner.go IndexRun), or null.
  const runOf = (name) => ((F.run && F.run.running && F.run.indexes) || []).find((x) => x.name === name) || null;
  const isRunning = (f) => f.status.startsWith('取り込み中');

  function init() {
    $('folder-add-open').addEventListener('click', openAdd);
    $('index-import-open').addEventListener('click', () => $('index-import-file').click());
    $('index-import-file').addEventListener('change', () => {
      const file = $('index-import-file').files[0];
      $('index-import-file').value = '';
      if (file) importIndex(file, '', false);
    });
    $('folder-add-open2').addEventListener('click', openAdd);
    $('folder-add-cancel').addEventListener('click', closeAdd);
    $('folder-add-browse').addEventListener('click', async () => {
      const p = await pickFolder($('folder-add-path').value.trim());
      if (p) $('folder-add-path').value = p;
    });
    $('folder-add').addEventListener('submit', (e) => {
      e.preventDefault();
      add();
    });
    $('run-start').addEventListener('click', start);
    $('run-resume').addEventListener('click', start);
    $('run-stop').addEventListener('click', stop);
    $('failures-filter').addEventListener('input', filterFailures);
    $('auto-on').addEventListener('change', async () => {
      const on = $('auto-on').checked;
      try {
        await F.post('/api/auto', { on });
      } catch (e) {
        $('auto-on').checked = !on;
        F.status(e.message, true);
      }
    });
  }

  // 自動で更新する (the background watcher): on or off, what it does, the
  // last change it picked up, folders it rescans instead of watching.
  function renderAuto(a) {
    if (!a) return;
    $('auto-on').checked = a.on;
    let text = a.on ? (a.running ? '監視中: ' : '') + (a.error || a.doing || '') : a.doing;
    if (a.on && a.lastChange) text += ` ・ 最後に取り込んだ変更: ${a.lastChangeAt} ${a.lastChange}`;
    $('auto-text').textContent = text;
    const r = $('auto-rescan');
    r.replaceChildren();
    for (const x of a.rescan || []) {
      r.append(el('div', { text: `⚠ ［${x.name}］ ${x.reason}（一定の間隔で調べ直しています）` }));
    }
  }

  async function refresh() {
    try {
      const st = await F.get('/api/state');
      F.state = st;
      render(st);
      F.badge();
    } catch (e) {
      F.status(e.message, true);
    }
    refreshFailures();
  }

  function running() {
    return !!(F.run && (F.run.running || F.run.locked));
  }

  function render(st) {
    const tb = $('folders').querySelector('tbody');
    tb.replaceChildren();
    const busy = running();
    for (const f of st.folders) tb.append(folderRow(f, busy));
    $('folders-empty').hidden = st.folders.length > 0 || !$('folder-add').hidden;
    $('folders-wrap').hidden = st.folders.length === 0;
    $('folders-count').textContent = T.registered(st.folders.length);
    $('files-count').textContent = T.total(st.totalFiles);
    const n = $('notice');
    n.textContent = st.notice || '';
    n.hidden = !st.notice;
    renderBanner();
  }

  function folderRow(f, busy) {
    const check = el('input', { type: 'checkbox', 'aria-label': f.name + ' を取り込む' });
    check.checked = f.enabled;
    // A received index (issue 30) is searchable, not crawled: no checkbox,
    // no ［取り込む］ or ［編集…］, until its folder is added.
    check.disabled = !!f.received;
    check.addEventListener('change', async () => {
      try {
        await F.post('/api/folders/enable', { name: f.name, enabled: check.checked });
        refresh();
      } catch (e) {
        check.checked = !check.checked;
        F.status(e.message, true);
      }
    });
    const folder = { ok: T.folderOk, missing: T.folderMissing, checking: T.folderChecking }[f.folder] || '';
    // 一部失敗 N 件: files failed, the index is searchable (issue 18).
    const partial = f.status.startsWith('一部失敗');
    // 取り込み中 12/40: this index's own share of the run (issue 32).
    const base = isRunning(f) ? '取り込み中' : f.status;
    const status = el('span', { class: 'status ' + (partial ? 's-partial' : statusClass[base] || ''), text: (partial ? '⚠ ' : statusMark[base] || '') + f.status });
    const statusCell = el('td', {}, status);
    const ir = isRunning(f) ? runOf(f.name) : null;
    if (ir && ir.total > 0) {
      const mini = el('div', { class: 'mini-bar' }, el('div', {}));
      mini.firstChild.style.width = (100 * ir.done) / ir.total + '%';
      statusCell.append(mini);
    }
    // ［取り込む］ runs this index alone and turns into ［中止］ while it runs
    // (reference/gui.md §2.2).
    const mine = isRunning(f);
    const upd = mine
      ? el('button', { type: 'button', class: 'row-run', text: '中止', onclick: stop })
      : el('button', { type: 'button', class: 'row-run', text: '取り込む', disabled: busy, title: busy ? 'インデックス作成中は取り込めません。インデックス作成が終わるまでお待ちください（［中止］で止められます）。' : null, onclick: () => start(f.name) });
    const edit = el('button', { type: 'button', text: '編集…', 'data-what': '編集', disabled: busy, title: busy ? T.busy('編集') : null, onclick: () => rename(f) });
    const exp = el('button', { type: 'button', text: 'エクスポート…', 'data-what': 'エクスポート', disabled: busy, title: busy ? T.busy('エクスポート') : null, onclick: () => exportIndex(f) });
    const del = el('button', { type: 'button', text: '削除', 'data-what': '削除', disabled: busy, title: busy ? T.busy('削除') : null, onclick: () => remove(f) });
    // 画像も OCR: the root's image files are read by OCR (issue 29).
    const ocr = el('input', { type: 'checkbox', class: 'ocr-images', 'aria-label': f.name + ' の画像ファイルも OCR で取り込む', disabled: busy });
    ocr.checked = !!f.ocrImages;
    ocr.addEventListener('change', async () => {
      try {
        await F.post('/api/folders/ocr', { name: f.name, ocrImages: ocr.checked });
        refresh();
      } catch (e) {
        ocr.checked = !ocr.checked;
        F.status(e.message, true);
      }
    });
    const ocrLabel = el('label', { class: 'ocr-label', title: '.tif .tiff .png .jpg .jpeg .bmp を OCR で読んで取り込みます（写真の多いフォルダでは時間がかかります）' }, ocr, ' 画像も OCR');
    const tr = el('tr', { tabindex: '0', 'data-name': f.name },
      el('td', { class: 'c-check' }, check),
      el('td', { text: f.name }),
      el('td', { class: 'path', text: f.path }),
      el('td', { class: 'folder-' + f.folder, text: folder }),
      el('td', { class: 'num', title: T.filesTip(f), text: f.files.toLocaleString() }),
      el('td', { text: f.last }),
      statusCell,
      el('td', { class: 'ops' }, f.received ? '' : upd, ' ', f.received ? '' : edit, ' ', exp, ' ', del, ' ', f.received ? '' : ocrLabel));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Delete' && e.target === tr && !busy) remove(f);
    });
    return tr;
  }

  // The banner (reference/gui.md §2.1): running (blue), interrupted
  // (yellow), finished (green / red / yellow).
  function renderBanner() {
    const v = F.run || {};
    const st = F.state || {};
    const b = $('run-banner');
    const bar = $('run-bar');
    b.className = 'banner';
    $('run-stop').hidden = true;
    $('run-resume').hidden = true;
    $('run-log').hidden = true;
    bar.hidden = true;
    $('run-rate').textContent = '';
    $('run-left').textContent = '';
    $('run-current').textContent = '';
    $('run-hint').textContent = '';
    $('run-icon').textContent = '';
    let text = '';
    if (v.running) {
      b.classList.add('run');
      $('run-icon').textContent = '●';
      text = v.banner;
      bar.hidden = false;
      bar.classList.toggle('indeterminate', v.percent < 0);
      $('run-bar-fill').style.width = (v.percent < 0 ? 30 : v.percent) + '%';
      $('run-current').textContent = (v.current || '') + (v.ocr ? '（' + v.ocr + '）' : '') + (v.note ? '（' + v.note + '）' : '');
      $('run-left').textContent = v.timeLeft || '';
      if (v.rate > 0) $('run-rate').textContent = v.rate.toFixed(1) + ' 件/秒';
      $('run-stop').hidden = !!v.stopping;
    } else if (v.end) {
      b.classList.add(v.end.level);
      $('run-icon').textContent = { ok: '✓', fail: '✗', warn: '⏸', error: '✗' }[v.end.level] || '';
      text = v.end.text;
      $('run-hint').textContent = v.end.hint || '';
      $('run-log').hidden = false;
      $('run-resume').hidden = !(st.interrupted > 0);
    } else if (st.interrupted > 0 && !v.locked) {
      b.classList.add('warn');
      $('run-icon').textContent = '⏸';
      text = T.interrupted(st.interrupted);
      $('run-resume').hidden = false;
    }
    $('run-text').textContent = text;
    b.hidden = !text;
    const lock = $('lock-banner');
    lock.textContent = v.locked ? '⚠ ' + v.lockMessage : '';
    lock.hidden = !v.locked;
    const busy = running();
    $('run-start').disabled = busy;
    $('run-resume').disabled = busy;
    $('folder-add-open').disabled = busy;
    $('index-import-open').disabled = busy;
    $('folder-add-open').title = busy ? T.busy('追加') : '';
    for (const btn of $('folders').querySelectorAll('td.ops button')) {
      btn.disabled = busy;
      btn.title = busy ? T.busy(btn.dataset.what) : '';
    }
  }

  // onRun receives every RunView of the event stream.
  function onRun(v, prev) {
    const wasRunning = prev && prev.running;
    if (v.running && !wasRunning) $('log').replaceChildren();
    renderBanner();
    renderAuto(v.auto);
    // The confirmation's end is a change too: the run writes the list of
    // its files then, so ファイル and 合計 count them (issue 18).
    const key = (x) => (x ? [!!x.running, !!x.locked, !!x.confirm, JSON.stringify(x.end || null), x.auto ? x.auto.lastChangeAt + x.auto.doing : ''].join('|') : '');
    if (key(prev) !== key(v)) {
      countsAt = Date.now();
      refresh();
    } else if (v.running && F.state && F.screen === 'index' && Date.now() - countsAt >= COUNTS_MS) {
      // Live counts during a run.
      countsAt = Date.now();
      refresh();
    } else if (v.running && F.state && F.screen === 'index') {
      // Keep the rows' counts and bars moving without reloading the list.
      for (const tr of $('folders').querySelectorAll('tbody tr')) {
        const ir = runOf(tr.dataset.name);
        const bar = tr.querySelector('.mini-bar > div');
        if (!ir || !ir.total || !bar) continue;
        bar.style.width = (100 * ir.done) / ir.total + '%';
        tr.querySelector('.status').textContent = `● 取り込み中 ${ir.done}/${ir.total}`;
      }
    }
    if (v.running && v.failed !== failedSeen) {
      failedSeen = v.failed;
      scheduleFailures();
    }
    // The run ended while ［中止］ asked: nothing is left to stop.
    if (!v.running && stopAsking && F.dialogClose) F.dialogClose(false);
    if (v.confirm && !confirmShown) openConfirm(v.confirm);
    if (!v.confirm && confirmShown && F.dialogClose) {
      confirmShown = null;
      F.dialogClose('gone');
    }
  }

  // The failure list updates live during a run, at most once a second.
  function scheduleFailures() {
    if (failuresTimer) return;
    const wait = Math.max(0, 1000 - (Date.now() - failuresAt));
    failuresTimer = setTimeout(() => {
      failuresTimer = 0;
      refreshFailures();
    }, wait);
  }

  async function refreshFailures() {
    failuresAt = Date.now();
    let res;
    try {
      res = await F.get('/api/failures');
    } catch (e) {
      return;
    }
    $('failures-title').textContent = T.failuresTitle(res.count);
    $('failures-section').hidden = res.count === 0 && !res.ignored;
    $('failures').hidden = res.count === 0;
    const tb = $('failures').querySelector('tbody');
    const ib = $('ignored').querySelector('tbody');
    tb.replaceChildren();
    ib.replaceChildren();
    // ［無視する］ marks a failure as expected: it moves to its own list
    // and no longer counts in the index's state (issue 18).
    const row = (r) =>
      el('tr', { 'data-path': r.path, 'data-cause': r.msg }, el('td', { text: r.path }), el('td', { text: r.msg }), el('td', { text: r.at }),
        el('td', { class: 'ops' },
          el('button', { type: 'button', class: 'small', text: 'フォルダを開く', onclick: () => openFolder(r.path) }),
          el('button', { type: 'button', class: 'small ignore', text: r.ignored ? '戻す' : '無視する', onclick: () => ignore(r.path, !r.ignored) })));
    for (const r of res.rows) (r.ignored ? ib : tb).append(row(r));
    // Causes with their counts; a click filters the list by that cause.
    const causes = new Map();
    for (const r of res.rows) if (!r.ignored) causes.set(r.msg, (causes.get(r.msg) || 0) + 1);
    const cs = $('failure-causes');
    cs.replaceChildren();
    for (const [msg, n] of [...causes].sort((a, b) => b[1] - a[1])) {
      cs.append(el('button', { type: 'button', class: 'small cause', title: msg, text: `${msg}（${n.toLocaleString()} 件）`, onclick: () => {
        $('failures-filter').value = $('failures-filter').value === msg ? '' : msg;
        filterFailures();
      } }));
    }
    filterFailures();
    $('ignored-title').textContent = T.ignoredTitle(res.ignored || 0);
    $('ignored-wrap').hidden = !res.ignored;
  }

  // filterFailures shows the rows whose path or cause holds the filter text.
  function filterFailures() {
    const f = $('failures-filter').value.trim().toLowerCase();
    for (const tr of document.querySelectorAll('#failures tbody tr, #ignored tbody tr')) {
      tr.hidden = !!f && !tr.dataset.path.toLowerCase().includes(f) && !tr.dataset.cause.toLowerCase().includes(f);
    }
  }

  async function openFolder(path) {
    try {
      const r = await F.postJSON('/api/open', { path, folder: true });
      F.status(r.message);
    } catch (e) {
      F.status(e.message, true);
    }
  }

  async function ignore(path, on) {
    try {
      const r = await F.postJSON('/api/failures/ignore', { path, ignore: on });
      F.status(r.message);
    } catch (e) {
      F.status(e.message, true);
    }
    refresh();
  }

  function onLog(lines) {
    const pre = $('log');
    const frag = document.createDocumentFragment();
    for (const l of lines) frag.append(el('div', { class: 'l-' + l.level, text: l.text }));
    pre.append(frag);
    while (pre.childElementCount > 2000) pre.firstChild.remove();
    pre.scrollTop = pre.scrollHeight;
  }

  function openAdd() {
    $('folder-add').hidden = false;
    $('folders-empty').hidden = true;
    $('folder-add-error').textContent = '';
    $('folder-add-path').focus();
  }

  function closeAdd() {
    $('folder-add').hidden = true;
    $('folder-add-path').value = '';
    $('folder-add-name').value = '';
    if (F.state) render(F.state);
  }

  async function add() {
    $('folder-add-error').textContent = '';
    try {
      const r = await F.postJSON('/api/folders/add', { path: $('folder-add-path').value, name: $('folder-add-name').value });
      F.status(r.message);
      closeAdd();
      refresh();
      if (F.search) F.search.reloadIndexes();
    } catch (e) {
      $('folder-add-error').textContent = e.message;
    }
  }

  // pickFolder is the folder picker (issue 32): the server lists this
  // machine's folders (POST /api/dirs), starting at the user's folders and
  // the drives; a click opens a folder, ［このフォルダを選ぶ］ takes it.
  // Resolves with the picked path, or null.
  function pickFolder(start) {
    return F.dialog((box, close) => {
      const title = el('h2', { id: 'dialog-title', text: 'フォルダを選ぶ' });
      const where = el('div', { class: 'picker-path', id: 'picker-path' });
      const list = el('div', { class: 'picker-list', id: 'picker-list', role: 'listbox' });
      const err = el('div', { class: 'field-error', role: 'alert', id: 'picker-error' });
      const up = el('button', { type: 'button', id: 'picker-up', text: '↑ 上へ' });
      const ok = el('button', { type: 'button', class: 'primary', id: 'picker-ok', text: 'このフォルダを選ぶ', disabled: true });
      let cur = '';
      let parent = '';
      const go = async (path) => {
        err.textContent = '';
        let r;
        try {
          r = await F.postJSON('/api/dirs', { path });
        } catch (e) {
          err.textContent = e.message;
          return;
        }
        cur = r.path;
        parent = r.parent || '';
        where.textContent = cur || '場所を選んでください';
        ok.disabled = !cur;
        up.disabled = !cur;
        list.replaceChildren();
        for (const d of r.dirs) list.append(el('button', { type: 'button', class: 'picker-item', 'data-path': d.path, text: d.name, onclick: () => go(d.path) }));
        if (cur && !r.dirs.length) list.append(el('div', { class: 'muted', text: 'サブフォルダはありません。' }));
        if (r.more) list.append(el('div', { class: 'muted', text: '多すぎるため、一部だけを表示しています。' }));
      };
      up.addEventListener('click', () => go(parent));
      ok.addEventListener('click', () => close(cur));
      box.append(title, where, list, err,
        el('div', { class: 'buttons' }, up, el('div', { class: 'spacer' }), ok,
          el('button', { type: 'button', id: 'dialog-cancel', autofocus: true, text: 'キャンセル', onclick: () => close(null) })));
      go(start || '').then(async () => {
        if (!start || !err.textContent) return;
        // A typed path that cannot be read: start at the places, and
        // keep saying why.
        const why = err.textContent;
        await go('');
        err.textContent = why;
      });
    });
  }

  // exportIndex downloads one index as a zip (issue 30; reference/gui.md
  // §2.2 ［エクスポート…］): the server streams it, the browser saves it.
  async function exportIndex(f) {
    const yes = await F.confirm({
      title: `「${f.name}」のインデックスをエクスポートしますか？`,
      facts: [
        ['next', `インデックス「${f.name}」（${f.files.toLocaleString()} ファイル分）を zip ファイルに書き出します。ほかの PC の fumibako で［インポート…］すると検索できます。`],
        ['kept', '元のファイルは含みません。書き出している間、インデックス作成は始められません。'],
      ],
      ok: 'エクスポートする',
    });
    if (!yes) return;
    const url = '/api/index/export?name=' + encodeURIComponent(f.name) + '&token=' + encodeURIComponent(F.token);
    const a = el('a', { href: url, download: f.name + '.zip' });
    document.body.append(a);
    a.click();
    a.remove();
    F.status(`インデックス「${f.name}」 を書き出しています（ブラウザのダウンロードに表示されます）。`);
  }

  // importIndex sends a zip to the server; a name in use offers another
  // name, the overwrite or cancel (reference/gui.md §2.6).
  async function importIndex(file, name, overwrite) {
    F.status(`${file.name} を確かめて取り込んでいます…`);
    const url = '/api/index/import?name=' + encodeURIComponent(name) + (overwrite ? '&overwrite=1' : '');
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/zip', 'X-Fumibako-Token': F.token }, body: file });
      const b = await r.json().catch(() => ({}));
      if (r.status === 409 && b.error === 'clash') {
        const choice = await clashDialog(b.name, b.message);
        if (choice === 'overwrite') return importIndex(file, b.name, true);
        if (choice) return importIndex(file, choice, false);
        F.status('インポートを取りやめました。');
        return;
      }
      if (!r.ok) throw F.apiError(r, b);
      F.status(b.message);
      refresh();
      if (F.search) F.search.reloadIndexes();
    } catch (e) {
      F.status(e.message, true);
    }
  }

  // clashDialog answers a new name, 'overwrite', or false (cancel).
  function clashDialog(name, message) {
    return F.dialog((box, close) => {
      const input = el('input', { type: 'text', id: 'import-name', value: name + '（受け取り）' });
      box.append(
        el('h2', { id: 'dialog-title', text: message }),
        el('p', { class: 'muted', text: '別の名前で取り込むか、今のインデックスを置き換えるかを選んでください。' }),
        el('label', {}, '新しい名前 ', input),
        el('div', { class: 'buttons' },
          el('button', { type: 'button', class: 'primary', id: 'import-rename', text: 'この名前で取り込む', onclick: () => close(input.value.trim() || false) }),
          el('button', { type: 'button', class: 'danger', id: 'import-overwrite', text: '置き換える', onclick: () => close('overwrite') }),
          el('button', { type: 'button', id: 'import-cancel', autofocus: true, text: 'キャンセル', onclick: () => close(false) })));
    });
  }

  // rename is インデックスの編集 (reference/gui.md §2.4): the name only;
  // nothing is re-ingested.
  function rename(f) {
    F.dialog((box, close) => {
      const input = el('input', { type: 'text', id: 'rename-name', value: f.name });
      // The path edit: a moved folder or another drive letter; the index
      // stays and nothing is ingested again (issue 30).
      const pathInput = el('input', { type: 'text', id: 'rename-path', value: f.path });
      // Hidden sheets (issue 31): off by default, as tebunko skips them.
      const hidden = el('input', { type: 'checkbox', id: 'rename-hidden-sheets' });
      hidden.checked = !!f.hiddenSheets;
      const err = el('div', { class: 'field-error', role: 'alert' });
      const ok = async () => {
        err.textContent = '';
        try {
          const hiddenChanged = hidden.checked !== !!f.hiddenSheets;
          let msg = '';
          if (hiddenChanged) {
            await F.post('/api/folders/hidden', { name: f.name, hiddenSheets: hidden.checked });
            msg = `[${f.name}] の Excel ブックの非表示のシートを${hidden.checked ? '取り込みます' : '取り込みません'}（次のインデックス作成で Excel ブックを読み直します）。`;
          }
          if (!hiddenChanged || input.value !== f.name || pathInput.value !== f.path) {
            const r = await F.postJSON('/api/folders/rename', { name: f.name, newName: input.value, path: pathInput.value === f.path ? '' : pathInput.value });
            msg = msg ? r.message + ' ' + msg : r.message;
          }
          F.status(msg);
          close(true);
          refresh();
          if (F.search) F.search.reloadIndexes();
        } catch (e) {
          err.textContent = e.message;
        }
      };
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') ok();
      });
      box.append(
        el('h2', { id: 'dialog-title', text: 'インデックスの編集' }),
        el('label', {}, 'インデックス名 ', input),
        el('label', {}, '元のフォルダ ', pathInput),
        el('p', { class: 'muted', text: 'フォルダを移したときは、場所を変えます（取り込み直しはしません）。' }),
        el('label', {}, hidden, ' Excel の非表示のシートも取り込む'),
        el('p', { class: 'muted', text: '既定では、作った人が見せていない計算用・作業用のシートは取り込みません。切り替えると、次のインデックス作成で Excel ブックを読み直します。結果では [シート]原価（非表示） のように示します。' }),
        err,
        el('div', { class: 'buttons' },
          el('button', { type: 'button', class: 'primary', id: 'rename-ok', text: '変更する', onclick: ok }),
          el('button', { type: 'button', text: 'キャンセル', onclick: () => close(false) })));
      setTimeout(() => input.select(), 0);
    });
  }

  // remove is the delete confirmation (reference/gui.md §2.5).
  async function remove(f) {
    const yes = await F.confirm({
      title: `「${f.name}」のインデックスを削除しますか？`,
      facts: [
        ['lost', `インデックス「${f.name}」（${f.files.toLocaleString()} ファイル分）を削除します。次のインデックス作成で消え、検索できなくなります。`],
        ['kept', `元のフォルダ（${f.path}）のファイルはそのまま残ります。`],
        ['next', '検索の対象から外さずに取り込みだけ止めるなら、削除せずに「取り込む」のチェックを外してください（インデックスは残り、検索できます）。'],
      ],
      ok: '削除する',
      danger: true,
    });
    if (!yes) return;
    try {
      const r = await F.postJSON('/api/folders/remove', { name: f.name });
      F.status(r.message);
      refresh();
      if (F.search) F.search.reloadIndexes();
    } catch (e) {
      F.status(e.message, true);
    }
  }

  // start runs every checked index, or with a name only that one (a
  // row's ［取り込む］, which checks it first).
  async function start(only) {
    // No folder yet: say so and open the form, instead of a run that
    // can only fail (issue 32).
    if (typeof only !== 'string' && F.state && F.state.folders.length === 0) {
      F.status('インデックスがありません。［＋ フォルダを追加］で検索したいフォルダを追加してください。', true);
      openAdd();
      return;
    }
    try {
      await F.post('/api/run/start', typeof only === 'string' ? { only } : {});
      F.status('');
    } catch (e) {
      F.status(e.message, true);
      refresh();
    }
  }

  async function stop() {
    stopAsking = true;
    const yes = await F.confirm({
      title: 'インデックス作成を中止しますか？',
      note: '取り込んだところまでは残ります。あとで続きから再開できます。',
      ok: '中止する',
      danger: true,
    });
    stopAsking = false;
    if (!yes || !(F.run && F.run.running)) return;
    try {
      await F.post('/api/run/stop', {});
    } catch (e) {
      F.status(e.message, true);
    }
  }

  // openConfirm is インデックス作成の確認 (reference/gui.md §3.2), with
  // the older per-index statuses and the counts as columns.
  async function openConfirm(c) {
    confirmShown = c;
    const answer = await F.dialog((box, close) => {
      const num = (n) => el('td', { class: 'num', text: n.toLocaleString() });
      const tb = el('tbody');
      for (const r of c.rows) {
        if (r.Kind === '対象外') continue; // another row's ［取り込む］: not part of this run
        let badge;
        let cls;
        if (r.Kind === 'チェックなし') [badge, cls] = ['取り込みません', 's-none'];
        else if (r.Kind === 'フォルダなし') [badge, cls] = ['取り込めません', 's-error'];
        else if (r.Kind === '削除予定') [badge, cls] = ['削除予定', 's-error']; // a removed root's index (issue 30)
        else if (r.Targets > 0) [badge, cls] = [`${r.Targets.toLocaleString()} 件`, 's-stale'];
        else [badge, cls] = ['取り込み不要', 's-fresh'];
        const tip = `新規 ${r.New} 件 / 更新あり ${r.Updated} 件 / 前回未完了 ${r.Pending} 件 / インデックスが無い・壊れている ${r.Lost} 件 / 前回失敗 ${r.Failed} 件`;
        tb.append(el('tr', {},
          el('td', { text: r.Index }), num(r.Files), num(r.New), num(r.Updated), num(r.Pending), num(r.Lost), num(r.Failed),
          el('td', {}, el('span', { class: 'status ' + cls, title: tip, text: badge }))));
      }
      const table = el('table', { class: 'grid-table', id: 'confirm-table' },
        el('thead', {}, el('tr', {},
          el('th', { text: 'インデックス名' }), el('th', { class: 'num', text: '対象ファイル数' }), el('th', { class: 'num', text: '新規' }),
          el('th', { class: 'num', text: '更新あり' }), el('th', { class: 'num', text: '前回未完了' }),
          el('th', { class: 'num', text: 'インデックスが無い・壊れている' }), el('th', { class: 'num', text: '前回失敗' }), el('th', { text: '状態' }))),
        tb);
      const retry = el('input', { type: 'checkbox', id: 'confirm-retry' });
      // Indexes of removed folders are deleted once the run goes ahead
      // (issue 30): that is something to do, and it can be cancelled.
      const freeing = c.rows.filter((r) => r.Kind === '削除予定').length;
      const totalLine = el('p', { id: 'confirm-total' });
      const startBtn = el('button', { type: 'button', class: 'primary', id: 'confirm-start', text: 'インデックス作成を開始', onclick: () => close({ proceed: true, retryFailed: retry.checked }) });
      const update = () => {
        let files = c.targets;
        let folders = c.folders;
        if (retry.checked) {
          files += c.failed;
          folders = c.rows.filter((r) => r.Targets > 0 || r.Failed > 0).length;
        }
        totalLine.textContent = files > 0
          ? `取り込み対象: ${folders} フォルダ / ${files.toLocaleString()} ファイル（最新のフォルダは取り込みません）`
          : '取り込みが必要なファイルはありません（すべて最新です）。';
        if (freeing > 0) totalLine.textContent += ` 削除予定のインデックス ${freeing} 件を削除します。`;
        startBtn.disabled = files === 0 && freeing === 0;
      };
      retry.addEventListener('change', update);
      box.append(el('h2', { id: 'dialog-title', text: 'インデックス作成の確認' }), table);
      if (c.failed > 0) {
        box.append(el('label', { class: 'check' }, retry, ` 前回取り込みに失敗し、その後変わっていないファイル ${c.failed.toLocaleString()} 件も取り込み直す（パスワード付きなど）`));
      }
      box.append(totalLine);
      if (c.targets === 0 && c.failed === 0 && freeing === 0) {
        box.append(el('p', { class: 'remark', text: '※ 更新日時とサイズだけを比べています。' }));
        box.append(el('div', { class: 'buttons' },
          el('button', { type: 'button', class: 'primary', id: 'confirm-close', autofocus: true, text: '閉じる', onclick: () => close({ proceed: true, retryFailed: false }) })));
      } else {
        box.append(el('p', { class: 'remark', text: '※ 取り込みには時間がかかることがあります。' }));
        box.append(el('p', { class: 'remark', text: '※ 元のファイルはコピーしてから読み取ります。元のファイルを変えたり、開けなくしたりすることはありません。' }));
        box.append(el('div', { class: 'buttons' },
          startBtn,
          el('button', { type: 'button', id: 'confirm-cancel', autofocus: true, text: 'キャンセル', onclick: () => close({ proceed: false, retryFailed: false }) })));
      }
      update();
    });
    confirmShown = null;
    if (answer === 'gone') return;
    const a = answer || { proceed: false, retryFailed: false };
    try {
      await F.post('/api/run/confirm', a);
    } catch (e) {
      if (e.status !== 409) F.status(e.message, true);
    }
  }

  return { init, refresh, onRun, onLog };
})();
