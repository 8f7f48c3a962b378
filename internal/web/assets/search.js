// The search page (reference/gui.md §4, search.md §6–§9): search as you
// type over the NDJSON stream of /api/search, hits grouped by file, the
// preview pane, keyboard navigation, copy and export.
'use strict';

F.search = (() => {
  const $ = F.$;
  const el = F.el;
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const DEBOUNCE_MS = 50; // keystrokes closer than this make one search
  const MIN_CHARS = 2; // search as you type from 2 characters (Enter: any)
  const BATCH_MS = 100; // new hits move into the list every 0.1 s (gui.md §8)
  const PREVIEW_MS = 120; // preview reload debounce (gui.md §4.6)
  const GROUP_PAGE = 100; // file groups added to the list at a time
  const SLICE_MS = 8; // stream parsing yields to input and paint this often
  const STORE = 'fumibako.search';

  let seq = 0; // the newest search; answers of older ones are dropped
  let ctrl = null;
  let timer = 0;
  let inputAt = null; // when the keystroke that the next search answers came
  let res = null; // the current result
  let cursor = null; // {g, h}: a group header (h = null) or a hit row
  let anchor = null; // Shift+click range start
  let selected = new Set();
  let filterText = '';
  let filterTimer = 0;
  let previewSeq = 0;
  let previewTimer = 0;
  let previewHit = null;
  let indexes = [];
  let composing = false;
  let firstShow = true;

  // Test hook: milliseconds from a keystroke to the first hit on screen.
  window.__fumibako = { timings: [] };

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
      kinds: kindBoxes().filter((b) => b.checked).map((b) => b.value),
      folder: $('opt-folder').value,
      names: $('opt-names').value,
      excluded: opts().excluded || [],
    };
    for (const b of $('target-list').querySelectorAll('input')) {
      const i = o.excluded.indexOf(b.value);
      if (!b.checked && i < 0) o.excluded.push(b.value);
      if (b.checked && i >= 0) o.excluded.splice(i, 1);
    }
    localStorage.setItem(STORE, JSON.stringify(o));
  }
  const kindBoxes = () => [...document.querySelectorAll('input[name=kind]')];

  function init() {
    const o = opts();
    $('opt-case').checked = !!o.case;
    $('opt-regex').checked = !!o.regex;
    $('opt-kana').checked = !!o.kana;
    $('opt-shapes').checked = o.shapes !== false;
    $('opt-comments').checked = o.comments !== false;
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
    $('search-form').addEventListener('submit', (e) => {
      e.preventDefault();
      clearTimeout(timer);
      run(true);
    });
    for (const id of ['opt-case', 'opt-regex', 'opt-kana', 'opt-shapes', 'opt-comments']) $(id).addEventListener('change', optionChanged);
    for (const b of kindBoxes()) b.addEventListener('change', optionChanged);
    for (const id of ['opt-folder', 'opt-names']) $(id).addEventListener('input', optionChanged);
    $('targets-all').addEventListener('click', () => setAllTargets(true));
    $('targets-none').addEventListener('click', () => setAllTargets(false));
    $('expand-all').addEventListener('click', () => toggleAll(true));
    $('collapse-all').addEventListener('click', () => toggleAll(false));
    $('copy-rows').addEventListener('click', copySelection);
    $('export-txt').addEventListener('click', () => exportFile('txt'));
    $('export-csv').addEventListener('click', () => exportFile('csv'));
    $('filter').addEventListener('input', () => {
      clearTimeout(filterTimer);
      filterTimer = setTimeout(() => applyFilter($('filter').value), 300);
    });
    const list = $('results');
    list.addEventListener('keydown', onListKey);
    list.addEventListener('click', onListClick);
    list.addEventListener('dblclick', onListDblClick);
    $('preview-open').addEventListener('click', () => openHit(previewHit, false));
    $('preview-folder').addEventListener('click', () => openHit(previewHit, true));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && ctrl && F.screen === 'search' && $('dialog-backdrop').hidden) cancel();
    });
    splitter();
    reloadIndexes();
  }

  function shown() {
    if (firstShow) {
      firstShow = false;
      $('q').focus();
    }
  }

  async function reloadIndexes() {
    let r;
    try {
      r = await F.get('/api/indexes');
    } catch (e) {
      return;
    }
    indexes = r.indexes;
    const excluded = opts().excluded || [];
    const list = $('target-list');
    list.replaceChildren();
    for (const name of indexes) {
      const box = el('input', { type: 'checkbox', value: name });
      box.checked = !excluded.includes(name);
      box.addEventListener('change', optionChanged);
      list.append(el('label', {}, box, ' ' + name));
    }
    if (!indexes.length) list.append(el('div', { class: 'muted', text: 'インデックスがありません' }));
    updateButton();
  }

  function setAllTargets(on) {
    for (const b of $('target-list').querySelectorAll('input')) b.checked = on;
    optionChanged();
  }

  function checkedIndexes() {
    const boxes = [...$('target-list').querySelectorAll('input')];
    return { boxes, on: boxes.filter((b) => b.checked).map((b) => b.value) };
  }

  function updateButton() {
    const { boxes, on } = checkedIndexes();
    $('search-go').disabled = !$('q').value.trim() || (boxes.length > 0 && on.length === 0);
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
    const kinds = kindBoxes().filter((b) => b.checked).map((b) => b.value);
    if (kinds.length > 0 && kinds.length < 4) p.set('kinds', kinds.join(','));
    const { boxes, on } = checkedIndexes();
    if (on.length < boxes.length) for (const n of on) p.append('indexes', n);
    if ($('opt-folder').value.trim()) p.set('folder', $('opt-folder').value.trim());
    if ($('opt-names').value.trim()) p.set('names', $('opt-names').value.trim());
    return p.toString();
  }

  function cancel() {
    if (!ctrl) return;
    ctrl.abort();
    ctrl = null;
    seq++;
    if (res) {
      flush(res);
      res.done = true;
      $('counts').textContent = `中止しました（${res.hits.length.toLocaleString()} 件まで表示）`;
    }
  }

  // run starts a search; force is Enter or the button (any length).
  async function run(force) {
    const text = $('q').value.trim();
    const { boxes, on } = checkedIndexes();
    if (!text || (!force && [...text].length < MIN_CHARS) || (boxes.length > 0 && on.length === 0)) {
      if (ctrl) ctrl.abort();
      ctrl = null;
      seq++;
      if (!text) clearResults();
      return;
    }
    if (ctrl) ctrl.abort();
    const my = ++seq;
    const c = (ctrl = new AbortController());
    const typedAt = inputAt;
    inputAt = null;
    const qs = params();
    const r = newResult(qs, text.split(/[\s\u3000]+/).join(' '), typedAt);
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

  function clearResults() {
    res = null;
    cursor = null;
    selected = new Set();
    $('results').replaceChildren();
    $('counts').textContent = '';
    $('notes').textContent = '';
    $('q-error').textContent = '';
    $('q').classList.remove('invalid');
  }

  function newResult(qs, query, typedAt) {
    clearResults();
    res = { qs, query, typedAt, hits: [], groups: [], byFile: new Map(), shown: 0, limit: GROUP_PAGE, flushTimer: 0, done: false, shownFirst: false };
    $('counts').textContent = '検索中…';
    return res;
  }

  function onLine(r, m) {
    if (m.type === 'hit') {
      addHit(r, m);
    } else if (m.type === 'done') {
      flush(r);
      r.done = true;
      r.doneLine = m;
      showCounts();
      const notes = [m.cut, m.indexing, ...(m.problems || [])].filter(Boolean);
      $('notes').textContent = notes.join('\n');
      if (m.hits === 0) {
        const cond = conditions();
        $('notes').textContent = [cond ? '検索の条件: ' + cond : '正規表現を使うと、もっと柔軟に探せます。', ...notes].join('\n');
      }
    } else if (m.type === 'error') {
      flush(r);
      r.done = true;
      $('counts').textContent = '';
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
    const k = kindBoxes().filter((b) => b.checked).map((b) => b.parentElement.textContent.trim());
    if (k.length && k.length < 4) c.push('種類: ' + k.join('・'));
    if ($('opt-folder').value.trim()) c.push('フォルダ: ' + $('opt-folder').value.trim());
    if ($('opt-names').value.trim()) c.push('対象ファイル: ' + $('opt-names').value.trim());
    const { boxes, on } = checkedIndexes();
    if (on.length < boxes.length) c.push('検索対象: ' + on.join('・'));
    return c.join(' / ');
  }

  function showCounts() {
    if (!res) return;
    const m = res.doneLine;
    const shown = res.hits.filter(matchesFilter).length;
    let text = m ? m.message : `検索中…（${res.hits.length.toLocaleString()} 件）`;
    if (filterText) text += ` ・ ${res.hits.length.toLocaleString()} 件中 ${shown.toLocaleString()} 件を表示`;
    $('counts').textContent = text;
  }

  function addHit(r, h) {
    h.file = h.index + '\\' + h.path;
    h.seq = r.hits.length;
    r.hits.push(h);
    let g = r.byFile.get(h.file);
    if (!g) {
      g = { file: h.file, hit0: h, hits: [], places: [], placeSet: new Set(), open: false, el: null, head: null, body: null, rendered: 0 };
      r.byFile.set(h.file, g);
      r.groups.push(g);
    }
    g.hits.push(h);
    h.group = g;
    if (!g.placeSet.has(h.placeLabel)) {
      g.placeSet.add(h.placeLabel);
      g.places.push(h.placeLabel);
    }
    g.dirty = true;
    if (!r.shownFirst) {
      flush(r); // the first hit shows at once
    } else if (!r.flushTimer) {
      r.flushTimer = setTimeout(() => flush(r), BATCH_MS);
    }
  }

  // flush moves new groups into the list and updates changed headers.
  function flush(r) {
    clearTimeout(r.flushTimer);
    r.flushTimer = 0;
    if (r !== res) return;
    const list = $('results');
    const frag = document.createDocumentFragment();
    // Only the first groups are in the page; scrolling to the end adds
    // more (a search can find 10,000 files).
    while (r.shown < r.groups.length && r.shown < r.limit) frag.append(groupEl(r.groups[r.shown++]));
    list.append(frag);
    more(r);
    for (const g of r.groups) {
      if (!g.dirty || !g.el) continue;
      g.dirty = false;
      updateHead(g);
      if (g.open) renderRows(g);
    }
    if (!r.shownFirst && r.groups.length) {
      r.shownFirst = true;
      r.paintNow = true;
      if (r.typedAt != null) {
        const t0 = r.typedAt;
        requestAnimationFrame(() => window.__fumibako.timings.push(performance.now() - t0));
      }
      if (!cursor) setCursor({ g: r.groups[0], h: null }, false);
    }
    if (!r.done) showCounts();
  }

  // more keeps a line at the end of the list while groups are left out;
  // when it scrolls into view the next page of groups is added.
  let moreEl = null;
  function more(r) {
    if (!moreEl) {
      moreEl = el('div', { id: 'results-more', class: 'more' });
      new IntersectionObserver((entries) => {
        if (res && entries.some((x) => x.isIntersecting)) showMore(res);
      }, { root: $('results') }).observe(moreEl);
    }
    const left = r.groups.length - r.shown;
    moreEl.textContent = left > 0 ? `ほか ${left.toLocaleString()} ファイル（スクロールすると表示します）` : '';
    moreEl.hidden = left <= 0;
    $('results').append(moreEl);
  }
  function showMore(r) {
    if (r.shown >= r.groups.length) return;
    r.limit = r.shown + GROUP_PAGE;
    flush(r);
  }

  const appLetter = { excel: 'X', word: 'W', powerpoint: 'P', text: 'T' };

  function groupEl(g) {
    const h = g.hit0;
    const slash = h.path.lastIndexOf('\\');
    const name = h.path.slice(slash + 1);
    const folder = h.index + (slash >= 0 ? '\\' + h.path.slice(0, slash) : '');
    g.tw = el('span', { class: 'tw', text: '▸' });
    g.sum = el('span', { class: 'gsum' });
    g.head = el('div', { class: 'ghead', role: 'treeitem', title: g.file },
      g.tw, el('span', { class: 'app app-' + h.fileKind, text: appLetter[h.fileKind] || '?' }),
      el('span', { class: 'fname', text: name }), el('span', { class: 'folder', text: folder }), g.sum);
    g.head.fgroup = g;
    g.body = el('div', { class: 'gbody', hidden: true });
    g.el = el('div', { class: 'group' }, g.head, g.body);
    g.el.hidden = !groupVisible(g);
    updateHead(g);
    return g.el;
  }

  // updateHead writes `[シート]4月 ほか 2 か所 ・ 3 件` (search.md §6.2).
  function updateHead(g) {
    const hits = filterText ? g.hits.filter(matchesFilter) : g.hits;
    let places = '';
    const labels = g.places.filter((p) => p);
    if (labels.length) places = labels[0] + (labels.length > 1 ? ` ほか ${labels.length - 1} か所` : '') + ' ・ ';
    g.sum.textContent = places + hits.length.toLocaleString() + ' 件';
    g.el.hidden = !groupVisible(g);
  }

  function toggle(g, open) {
    g.open = open === undefined ? !g.open : open;
    g.tw.textContent = g.open ? '▾' : '▸';
    g.body.hidden = !g.open;
    if (g.open) renderRows(g);
  }

  function toggleAll(open) {
    if (!res) return;
    for (const g of res.groups) if (g.el) toggle(g, open);
  }

  // renderRows builds the rows of an open group (only then: gui.md §4.5).
  function renderRows(g) {
    const hits = g.hits.filter(matchesFilter);
    if (g.rendered === hits.length && g.renderedFilter === filterText) return;
    g.body.replaceChildren();
    const frag = document.createDocumentFragment();
    for (const h of hits) frag.append(rowEl(h));
    g.body.append(frag);
    g.rendered = hits.length;
    g.renderedFilter = filterText;
    markCursor();
  }

  function rowEl(h) {
    const row = el('div', { class: 'hrow', role: 'treeitem' },
      el('span', { class: 'place', text: h.label, title: h.label }),
      el('span', { class: 'kind', text: h.kind }),
      lineEl(h));
    row.fhit = h;
    h.rowEl = row;
    if (selected.has(h)) row.classList.add('selected');
    return row;
  }

  // fields splits an Excel line (UTF-8 bytes) into cells as Excel reads
  // its text export (search.Fields): TAB separates, a cell starting with
  // `"` runs to its closing `"`.
  function fields(b) {
    const out = [];
    let i = 0;
    for (;;) {
      const start = i;
      if (i < b.length && b[i] === 0x22) {
        i++;
        while (i < b.length) {
          if (b[i] === 0x22) {
            if (b[i + 1] === 0x22) {
              i += 2;
              continue;
            }
            i++;
            break;
          }
          i++;
        }
      }
      let j = b.indexOf(0x09, i);
      if (j < 0) {
        out.push([start, b.length]);
        return out;
      }
      out.push([start, j]);
      i = j + 1;
    }
  }

  // marked renders bytes [s, e) of a line with its matches in <mark>.
  function marked(b, s, e, matches, shown) {
    const frag = document.createDocumentFragment();
    let pos = s;
    const text = (x, y) => shown(dec.decode(b.subarray(x, y)));
    for (const [ms, me] of matches || []) {
      const a = Math.max(ms, s);
      const z = Math.min(me, e);
      if (a >= z) continue;
      if (a > pos) frag.append(text(pos, a));
      frag.append(el('mark', { text: text(a, z) }));
      pos = z;
    }
    if (pos < e) frag.append(text(pos, e));
    return frag;
  }

  const shownLine = (s) => s.replaceAll('\t', ' │ ').replaceAll('\u2028', '↵');
  const shownCell = (s) => s.replaceAll('""', '"').replaceAll('\u2028', '↵');

  // lineEl shows the line with its matches: Excel rows as cells, shape and
  // comment lines without their cell and quotes, others with TAB as │ and
  // U+2028 as ↵ (search.md §7).
  function lineEl(h) {
    const b = enc.encode(h.text);
    const title = shownLine(h.text).slice(0, 1000);
    if (h.fileKind === 'excel' && h.kind === 'セル') {
      const wrap = el('span', { class: 'cells', title });
      for (let [s, e] of fields(b)) {
        if (e - s >= 2 && b[s] === 0x22 && b[e - 1] === 0x22) {
          s++;
          e--;
        }
        const c = el('span', { class: 'cell' + (s === e ? ' empty' : '') });
        c.append(marked(b, s, e, h.matches, shownCell));
        wrap.append(c);
      }
      return wrap;
    }
    let s = 0;
    let e = b.length;
    let show = shownLine;
    if (h.fileKind === 'excel' && (h.kind === '図形' || h.kind === 'コメント')) {
      const t = b.indexOf(0x09);
      if (t >= 0) s = t + 1;
      if (e - s >= 2 && b[s] === 0x22 && b[e - 1] === 0x22) {
        s++;
        e--;
        show = shownCell;
      }
    }
    const span = el('span', { class: 'line', title });
    span.append(marked(b, s, e, h.matches, show));
    return span;
  }

  function matchesFilter(h) {
    if (!filterText) return true;
    const f = filterText.toLowerCase();
    return [h.file, h.placeLabel, h.kind, h.text].some((s) => s.toLowerCase().includes(f));
  }
  function groupVisible(g) {
    return !filterText || g.hits.some(matchesFilter);
  }

  function applyFilter(f) {
    filterText = f.trim();
    if (!res) return;
    for (const g of res.groups) {
      if (!g.el) continue;
      updateHead(g);
      if (g.open) renderRows(g);
    }
    showCounts();
  }

  // Navigation: the visible items in order, headers and open rows.
  function items() {
    const out = [];
    if (!res) return out;
    for (const g of res.groups) {
      if (!g.el || g.el.hidden) continue;
      out.push({ g, h: null });
      if (g.open) for (const h of g.hits) if (matchesFilter(h)) out.push({ g, h });
    }
    return out;
  }
  const same = (a, b) => a && b && a.g === b.g && a.h === b.h;
  const itemEl = (it) => (it.h ? it.h.rowEl : it.g.head);

  function markCursor() {
    for (const e of $('results').querySelectorAll('.cursor')) e.classList.remove('cursor');
    if (cursor) {
      const e = itemEl(cursor);
      if (e) e.classList.add('cursor');
    }
  }

  function setCursor(it, scroll) {
    cursor = it;
    markCursor();
    const e = it && itemEl(it);
    if (e && scroll !== false) e.scrollIntoView({ block: 'nearest' });
    if (it && it.h) schedulePreview(it.h);
  }

  function selectOnly(h) {
    for (const x of selected) if (x.rowEl) x.rowEl.classList.remove('selected');
    selected = new Set(h ? [h] : []);
    if (h && h.rowEl) h.rowEl.classList.add('selected');
    anchor = h;
  }

  function onListKey(e) {
    const list = items();
    let i = list.findIndex((it) => same(it, cursor));
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!list.length) return;
      if (e.key === 'ArrowDown' && i === list.length - 1 && res && res.shown < res.groups.length) {
        showMore(res);
        list.splice(0, list.length, ...items());
      }
      i = e.key === 'ArrowDown' ? Math.min(list.length - 1, i + 1) : Math.max(0, i - 1);
      setCursor(list[i]);
      if (list[i].h) selectOnly(list[i].h);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      if (list.length) setCursor(list[e.key === 'Home' ? 0 : list.length - 1]);
    } else if (e.key === 'Enter' && cursor) {
      e.preventDefault();
      if (cursor.h) openHit(cursor.h, false);
      else {
        toggle(cursor.g);
        markCursor();
      }
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && cursor && !cursor.h) {
      e.preventDefault();
      toggle(cursor.g, e.key === 'ArrowRight');
      markCursor();
    } else if ((e.ctrlKey || e.metaKey) && (e.key === 'c' || e.key === 'C')) {
      e.preventDefault();
      copySelection();
    }
  }

  function onListClick(e) {
    const head = e.target.closest('.ghead');
    if (head && head.fgroup) {
      setCursor({ g: head.fgroup, h: null }, false);
      toggle(head.fgroup);
      markCursor();
      return;
    }
    const row = e.target.closest('.hrow');
    if (!row || !row.fhit) return;
    const h = row.fhit;
    if (e.ctrlKey || e.metaKey) {
      if (selected.has(h)) {
        selected.delete(h);
        row.classList.remove('selected');
      } else {
        selected.add(h);
        row.classList.add('selected');
      }
      anchor = h;
    } else if (e.shiftKey && anchor) {
      const rows = items().filter((it) => it.h).map((it) => it.h);
      const a = rows.indexOf(anchor);
      const b = rows.indexOf(h);
      if (a >= 0 && b >= 0) {
        for (const x of selected) if (x.rowEl) x.rowEl.classList.remove('selected');
        selected = new Set(rows.slice(Math.min(a, b), Math.max(a, b) + 1));
        for (const x of selected) if (x.rowEl) x.rowEl.classList.add('selected');
      }
    } else {
      selectOnly(h);
    }
    setCursor({ g: h.group, h }, false);
  }

  function onListDblClick(e) {
    const row = e.target.closest('.hrow');
    if (row && row.fhit) openHit(row.fhit, false);
  }

  // Copy and export in the format of search_results.txt (search.md §8).
  function exportLine(h) {
    if (h.fileKind === 'excel') return h.text.replaceAll('\u2028', '\n');
    return h.text.split('\t').map((f) => (f.startsWith('"') ? '"' + f.replaceAll('"', '""') + '"' : f)).join('\t');
  }
  function letters(i) {
    let s = '';
    for (i++; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
    return s;
  }
  function exportText(hits) {
    let cols = 0;
    for (const h of hits) cols = Math.max(cols, fields(enc.encode(h.text)).length);
    const head = ['ファイル名', '場所', '種別', '行'];
    for (let i = 0; i < cols; i++) head.push(letters(i));
    const lines = [`【検索文字列\u3000${res.query}】 ${hits.length} 件`, head.join('\t')];
    for (const h of hits) lines.push([h.file, h.placeLabel, h.kind, h.row, exportLine(h)].join('\t'));
    return lines.join('\r\n') + '\r\n' + (hits.length ? '\r\n' : '');
  }

  async function copySelection() {
    if (!res) {
      F.status('先に検索してください。', true);
      return;
    }
    let hits;
    if (cursor && !cursor.h && selected.size <= 1) hits = cursor.g.hits.filter(matchesFilter);
    else if (selected.size) hits = res.hits.filter((h) => selected.has(h));
    else if (cursor && cursor.h) hits = [cursor.h];
    else hits = [];
    if (!hits.length) return;
    const ok = await F.copyText(exportText(hits));
    F.status(ok ? `${hits.length.toLocaleString()} 件をコピーしました` : 'コピーできませんでした', !ok);
  }

  async function exportFile(format) {
    if (!res || !res.done) {
      F.status('先に検索してください。', true);
      return;
    }
    try {
      const r = await F.post('/api/export', { query: res.qs, filter: filterText, format });
      const blob = await r.blob();
      const name = format === 'csv' ? 'search_results.csv' : 'search_results.txt';
      F.download(blob, name);
      F.status(decodeURIComponent((r.headers.get('X-Fumibako-Status') || '').replaceAll('+', ' ')));
    } catch (e) {
      F.status(e.message, true);
    }
  }

  // Opening the original (search.md §9): only from this machine; the
  // server refuses otherwise and the download link stays.
  async function openHit(h, folder) {
    if (!h) return;
    try {
      const r = await F.postJSON('/api/open', { path: h.file, folder });
      F.status(r.message);
    } catch (e) {
      F.status(e.message, true);
    }
  }

  // Preview (gui.md §4.6).
  function schedulePreview(h) {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(() => loadPreview(h), PREVIEW_MS);
  }

  function matchCells(h) {
    const b = enc.encode(h.text);
    const fs = fields(b);
    const cells = new Set();
    for (const [ms] of h.matches || []) {
      const i = fs.findIndex(([s, e]) => ms >= s && ms < e);
      if (i >= 0) cells.add(i);
    }
    return cells;
  }

  async function loadPreview(h) {
    const my = ++previewSeq;
    previewHit = h;
    $('preview-title').textContent = `${h.file} ・ ${h.label} ・ ${h.kind}`;
    $('preview-title').title = h.file;
    $('preview-open').disabled = false;
    $('preview-folder').disabled = false;
    const dl = $('preview-download');
    dl.href = '/api/file?path=' + encodeURIComponent(h.file);
    dl.hidden = false;
    const body = $('preview-body');
    const fit = Math.max(5, Math.min(101, Math.floor((body.clientHeight - 24) / 22)));
    const before = Math.floor((fit - 1) / 2);
    const after = fit - 1 - before;
    const cells = matchCells(h);
    const col = cells.size ? Math.min(...cells) : 0;
    const p = new URLSearchParams({ path: h.file, place: h.place, row: h.row, before, after, col });
    let v;
    try {
      v = await F.get('/api/preview?' + p);
    } catch (e) {
      v = null;
    }
    if (my !== previewSeq) return;
    $('preview-note').textContent = v && v.colNote ? v.colNote : '';
    body.replaceChildren(sheet(v, h, cells));
    const sel = body.querySelector('tr.sel');
    if (sel) {
      sel.scrollIntoView({ block: 'center', inline: 'nearest' });
      const m = sel.querySelector('td.match');
      if (m) m.scrollIntoView({ block: 'nearest', inline: 'center' });
    }
  }

  // sheet is the preview grid: row numbers, column letters for Excel (1
  // for one-column places), the hit row pale blue, matching cells yellow.
  function sheet(v, h, cells) {
    if (!v) v = { grid: false, firstCol: 0, rows: [{ n: h.row, cells: [h.text] }] };
    const table = el('table', { class: 'sheet' + (v.grid ? '' : ' paras'), id: 'preview-sheet' });
    const width = v.rows.reduce((m, r) => Math.max(m, r.cells.length), 1);
    const hr = el('tr', {}, el('th', {}));
    for (let i = 0; i < width; i++) hr.append(el('th', { text: v.grid ? letters(v.firstCol + i) : String(i + 1) }));
    table.append(el('thead', {}, hr));
    const tb = el('tbody');
    for (const r of v.rows) {
      const isHit = r.n === h.row;
      const tr = el('tr', { class: isHit ? 'sel' : null }, el('th', { text: r.n }));
      for (let i = 0; i < width; i++) {
        let t = r.cells[i] || '';
        if (!v.grid) t = shownLine(t);
        const cut = [...t].length > 300 ? [...t].slice(0, 300).join('') + '…' : t;
        const match = isHit && (v.grid ? cells.has(v.firstCol + i) : true);
        tr.append(el('td', { class: match ? 'match' : null, title: t.length > 0 ? t.slice(0, 1000) : null, text: cut }));
      }
      tb.append(tr);
    }
    table.append(tb);
    return table;
  }

  // splitter lets the preview's height be dragged (results ≥ 60 px,
  // preview ≥ 100 px; not saved).
  function splitter() {
    const sp = $('splitter');
    sp.addEventListener('mousedown', (e) => {
      e.preventDefault();
      const pv = $('preview');
      const startY = e.clientY;
      const startH = pv.getBoundingClientRect().height;
      const total = $('results').getBoundingClientRect().height + startH;
      const move = (m) => {
        const hgt = Math.max(100, Math.min(total - 60, startH - (m.clientY - startY)));
        pv.style.flexBasis = hgt + 'px';
      };
      const up = () => {
        document.removeEventListener('mousemove', move);
        document.removeEventListener('mouseup', up);
      };
      document.addEventListener('mousemove', move);
      document.addEventListener('mouseup', up);
    });
  }

  function onRun(v, prev) {
    if (prev && prev.running && !v.running) reloadIndexes();
  }

  return { init, shown, onRun, reloadIndexes };
})();
