// The search page (reference/gui.md §4, search.md §6–§9): search as you
// type over the NDJSON stream of /api/search, hits grouped by file, the
// preview pane, keyboard navigation, copy and export.
'use strict';

F.search = (() => {
  const $ = F.$;
  const el = F.el;
  const DEBOUNCE_MS = 50; // keystrokes closer than this make one search
  const MIN_CHARS = 2; // search as you type from 2 characters (Enter: any)
  const SLICE_MS = 8; // stream parsing yields to input and paint this often
  const STORE = 'fumibako.search';

  let seq = 0; // the newest search; answers of older ones are dropped
  let ctrl = null;
  let timer = 0;
  let inputAt = null; // when the keystroke that the next search answers came
  let indexes = [];
  let composing = false;
  let firstShow = true;

  function opts() {
    try {
      return JSON.parse(localStorage.getItem(STORE)) || {};
    } catch (e) {
      return {};
    }
  }
  function saveOpts() {
    const o = {
      case: $('opt-case').checked,
      regex: $('opt-regex').checked,
      kana: $('opt-kana').checked,
      shapes: $('opt-shapes').checked,
      comments: $('opt-comments').checked,
      filenames: $('opt-filenames').checked,
      kinds: kindBoxes().filter((b) => b.checked).map((b) => b.value),
      folder: $('opt-folder').value,
      names: $('opt-names').value,
      migrated: true,
    };
    localStorage.setItem(STORE, JSON.stringify(o));
  }

  // The options every browser shares through settings.json (issue 32; the
  // 設定 screen shows the same keys): checkbox id, settings key. This
  // browser's copy (saveOpts) is only the fallback when the server cannot
  // answer; a copy from before, when options lived here, is moved to the
  // settings once, while those still hold their defaults.
  const SHARED = [
    ['opt-case', 'search.case', false],
    ['opt-regex', 'search.regex', false],
    ['opt-kana', 'search.kana', false],
    ['opt-shapes', 'search.shapes', true],
    ['opt-comments', 'search.comments', true],
    ['opt-filenames', 'search.fileNames', true],
  ];
  const LOCAL = { 'search.case': 'case', 'search.regex': 'regex', 'search.kana': 'kana', 'search.shapes': 'shapes', 'search.comments': 'comments', 'search.fileNames': 'filenames' };
  function sharedValues() {
    const v = { 'search.kinds': kindBoxes().filter((b) => b.checked).map((b) => b.value) };
    for (const [id, key] of SHARED) v[key] = $(id).checked;
    return v;
  }
  async function loadShared() {
    let r;
    try {
      r = await F.get('/api/settings');
    } catch (e) {
      return false;
    }
    const v = Object.fromEntries(r.settings.map((x) => [x.key, x.value]));
    const o = opts();
    const defaults = SHARED.every(([, key, def]) => v[key] === def) && !(v['search.kinds'] || []).length;
    if (!o.migrated && defaults && Object.values(LOCAL).some((k) => k in o)) {
      const m = { 'search.kinds': o.kinds || [] };
      for (const [, key, def] of SHARED) m[key] = o[LOCAL[key]] === undefined ? def : !!o[LOCAL[key]];
      try {
        await F.post('/api/settings', { values: m });
        Object.assign(v, m);
      } catch (e) {
        return false;
      }
    }
    for (const [id, key] of SHARED) $(id).checked = !!v[key];
    for (const b of kindBoxes()) b.checked = (v['search.kinds'] || []).includes(b.value);
    saveOpts();
    return true;
  }
  let savingShared = Promise.resolve();
  function saveShared() {
    const values = sharedValues();
    savingShared = savingShared.then(() => F.post('/api/settings', { values })).catch((e) => F.status(e.message, true));
  }
  const kindBoxes = () => [...document.querySelectorAll('input[name=kind]')];

  function init() {
    const o = opts();
    $('opt-case').checked = !!o.case;
    $('opt-regex').checked = !!o.regex;
    $('opt-kana').checked = !!o.kana;
    $('opt-shapes').checked = o.shapes !== false;
    $('opt-comments').checked = o.comments !== false;
    $('opt-filenames').checked = o.filenames !== false;
    for (const b of kindBoxes()) b.checked = (o.kinds || []).includes(b.value);
    $('opt-folder').value = o.folder || '';
    $('opt-names').value = o.names || '';

    const q = $('q');
    q.addEventListener('compositionstart', () => (composing = true));
    q.addEventListener('compositionend', () => {
      composing = false;
      typed();
    });
    q.addEventListener('input', () => {
      if (!composing) typed();
    });
    // ↓ in the box goes to the results.
    q.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' && !composing && F.results.focusFirst()) e.preventDefault();
    });
    $('search-form').addEventListener('submit', (e) => {
      e.preventDefault();
      clearTimeout(timer);
      run(true);
    });
    for (const id of ['opt-case', 'opt-regex', 'opt-kana', 'opt-shapes', 'opt-comments', 'opt-filenames']) $(id).addEventListener('change', optionChanged);
    for (const b of kindBoxes()) b.addEventListener('change', optionChanged);
    for (const [id] of SHARED) $(id).addEventListener('change', saveShared);
    for (const b of kindBoxes()) b.addEventListener('change', saveShared);
    loadShared().then(() => (window.__fumibako.optionsLoaded = true));
    for (const id of ['opt-folder', 'opt-names']) $(id).addEventListener('input', optionChanged);
    // Unchecked tree nodes come from the settings (reloadIndexes); a page
    // of an older version kept them in this browser: they are moved there
    // once.
    legacyExcludes = o.exclude || (o.excluded || []).map((n) => ({ path: n, subfolders: true }));
    F.tree.init($('target-list'), [], treeChanged);
    $('targets-all').addEventListener('click', () => F.tree.setAll(true, indexes));
    $('targets-none').addEventListener('click', () => F.tree.setAll(false, indexes));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && ctrl && F.screen === 'search' && $('dialog-backdrop').hidden) cancel();
    });
    // Another page may have changed the exclusions: read them again when
    // this one comes back to the front.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') reloadIndexes();
    });
    reloadIndexes();
  }

  // The exclusions are saved one request after the other, in order.
  let legacyExcludes = [];
  let saving = Promise.resolve();
  function saveExcludes() {
    const list = F.tree.exclusions().slice();
    saving = saving.then(() => F.post('/api/excludes', { excludes: list })).catch(() => {});
    return saving;
  }

  function treeChanged() {
    saveExcludes();
    optionChanged();
  }

  function shown() {
    savingShared.then(loadShared); // the 設定 screen may have changed them
    if (firstShow) {
      firstShow = false;
      $('q').focus();
    }
  }

  async function reloadIndexes() {
    await saving; // a change of this page is saved before it is read back
    let r;
    try {
      r = await F.get('/api/indexes');
    } catch (e) {
      return;
    }
    indexes = r.indexes;
    F.open.setIndexes(r);
    const list = $('target-list');
    let excl = r.excludes || [];
    if (!excl.length && legacyExcludes.length) {
      excl = legacyExcludes;
      F.tree.set(excl);
      saveExcludes();
    }
    const o = opts();
    if (o.exclude || o.excluded) saveOpts(); // drops them from this browser
    legacyExcludes = [];
    F.tree.set(excl);
    F.tree.reload(indexes);
    if (!indexes.length) list.append(el('div', { class: 'muted', text: 'インデックスがありません' }));
    // When each index was last updated, with its date (issue 18).
    const upd = (r.updated || []).map((v) => `${v.name} ${v.updated || '未作成'}`);
    $('index-updated').textContent = upd.length ? 'インデックスの最終取り込み: ' + upd.join(' ・ ') : '';
    updateButton();
  }

  // checkedIndexes: the index names and whether any part is checked.
  function checkedIndexes() {
    return { boxes: indexes, on: F.tree.anyOn(indexes) ? indexes : [] };
  }

  function updateButton() {
    const { boxes, on } = checkedIndexes();
    const any = $('q').value.trim() || $('opt-names').value.trim();
    $('search-go').disabled = !any || (boxes.length > 0 && on.length === 0);
  }

  function optionChanged() {
    saveOpts();
    updateButton();
    if ($('q').value.trim()) {
      clearTimeout(timer);
      timer = setTimeout(() => run(false), 150);
    }
  }

  // typed starts the search for a keystroke: at once after a pause in
  // typing, or DEBOUNCE_MS after the last of a burst (key repeat, paste),
  // so a burst makes one search. A newer search aborts the older one.
  let lastKey = -Infinity;
  function typed() {
    const now = performance.now();
    const burst = now - lastKey < DEBOUNCE_MS;
    lastKey = now;
    inputAt = now;
    updateButton();
    clearTimeout(timer);
    if (burst) timer = setTimeout(() => run(false), DEBOUNCE_MS);
    else run(false);
  }

  // params is the search's URL query (also sent back for the export).
  function params() {
    const p = new URLSearchParams();
    p.set('q', $('q').value);
    if ($('opt-regex').checked) p.set('regex', '1');
    if ($('opt-case').checked) p.set('case', '1');
    if ($('opt-kana').checked) p.set('kana', '1');
    if (!$('opt-shapes').checked) p.set('shapes', '0');
    if (!$('opt-comments').checked) p.set('comments', '0');
    if (!$('opt-filenames').checked) p.set('filenames', '0');
    // Exactly the ticked kinds (none ticked: every kind).
    const kinds = kindBoxes().filter((b) => b.checked).map((b) => b.value);
    if (kinds.length > 0) p.set('kinds', kinds.join(','));
    F.tree.params(p);
    if ($('opt-folder').value.trim()) p.set('folder', $('opt-folder').value.trim());
    if ($('opt-names').value.trim()) p.set('names', $('opt-names').value.trim());
    return p.toString();
  }

  function cancel() {
    if (!ctrl) return;
    ctrl.abort();
    ctrl = null;
    seq++;
    F.results.cancel();
  }

  // run starts a search; force is Enter or the button (any length).
  async function run(force) {
    // Without words, a file-name filter lists files (search --name).
    const text = $('q').value.trim() || (force ? $('opt-names').value.trim() && ' ' : '');
    const { boxes, on } = checkedIndexes();
    if (!text || (!force && [...text].length < MIN_CHARS) || (boxes.length > 0 && on.length === 0)) {
      if (ctrl) ctrl.abort();
      ctrl = null;
      seq++;
      if (!text) clear();
      return;
    }
    if (ctrl) ctrl.abort();
    const my = ++seq;
    const c = (ctrl = new AbortController());
    const typedAt = inputAt;
    inputAt = null;
    const qs = params();
    clearError();
    const r = F.results.start(qs, text.trim() ? text.split(/[\s\u3000]+/).join(' ') : $('opt-names').value.trim(), typedAt);
    let resp;
    try {
      resp = await fetch('/api/search?' + qs, { signal: c.signal });
      const reader = resp.body.getReader();
      const td = new TextDecoder();
      let buf = '';
      let slice = performance.now();
      for (;;) {
        const { value, done } = await reader.read();
        if (my !== seq) {
          reader.cancel().catch(() => {});
          return;
        }
        if (done) break;
        buf += td.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line) onLine(r, JSON.parse(line));
          // A big answer is parsed in slices: the first hit is painted
          // at once, and keystrokes are never kept waiting.
          if (r.paintNow || performance.now() - slice > SLICE_MS) {
            const first = r.paintNow;
            r.paintNow = false;
            await (first ? nextPaint() : nextTask());
            if (my !== seq) {
              reader.cancel().catch(() => {});
              return;
            }
            slice = performance.now();
          }
        }
      }
    } catch (e) {
      if (e.name === 'AbortError' || my !== seq) return;
      F.status(e.message, true);
    } finally {
      if (ctrl === c) ctrl = null;
    }
  }

  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

  function clearError() {
    $('q-error').textContent = '';
    $('q').classList.remove('invalid');
  }

  function clear() {
    F.results.clear();
    clearError();
  }

  function onLine(r, m) {
    if (m.type === 'hit') {
      F.results.add(r, m);
    } else if (m.type === 'done') {
      F.results.finish(r, m);
      const notes = [m.cut, m.indexing, ...(m.problems || [])].filter(Boolean);
      $('notes').textContent = notes.join('\n');
      if (m.hits === 0) {
        // With no index at all nothing can be found: no regex hint then.
        const cond = conditions();
        const hint = cond ? '検索の条件: ' + cond : indexes.length ? '正規表現を使うと、もっと柔軟に探せます。' : 'インデックスがありません。インデックス管理でフォルダを追加して、インデックスを作成してください。';
        $('notes').textContent = [hint, ...notes].join('\n');
      }
    } else if (m.type === 'error') {
      F.results.finish(r, null);
      $('q-error').textContent = m.message;
      $('q').classList.add('invalid');
    }
  }

  // conditions lists the non-default options in force (for 0 hits).
  function conditions() {
    const c = [];
    if ($('opt-case').checked) c.push('大文字と小文字を区別');
    if ($('opt-regex').checked) c.push('正規表現');
    if ($('opt-kana').checked) c.push('ひらがなとカタカナを区別しない');
    if (!$('opt-shapes').checked) c.push('図形を除く');
    if (!$('opt-comments').checked) c.push('コメントを除く');
    if (!$('opt-filenames').checked) c.push('ファイル名を除く');
    const k = kindBoxes().filter((b) => b.checked).map((b) => b.parentElement.textContent.trim());
    if (k.length && k.length < 4) c.push('種類: ' + k.join('・'));
    if ($('opt-folder').value.trim()) c.push('フォルダ: ' + $('opt-folder').value.trim());
    if ($('opt-names').value.trim()) c.push('対象ファイル: ' + $('opt-names').value.trim());
    const ex = F.tree.exclusions();
    if (ex.length) c.push('検索対象から除外: ' + ex.map((e) => e.path + (e.subfolders ? '' : '（直下のファイル）')).join('・'));
    return c.join(' / ');
  }

  function onRun(v, prev) {
    if (prev && prev.running && !v.running) reloadIndexes();
  }

  return { init, shown, onRun, reloadIndexes };
})();
