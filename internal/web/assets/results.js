// The result list (reference/gui.md §4.5, search.md §7): hits grouped by
// file, collapsed, a page of groups at a time; the local filter; keyboard
// navigation and selection; copy and export.
'use strict';

F.results = (() => {
  const $ = F.$;
  const el = F.el;
  const { lineEl, exportText, openHit, isName, parseTime, shownTime, shownSize } = F.hits;
  const VIEW = 'fumibako.results'; // remembered: expand all, sort
  const FRESH_MS = 100; // shown files are checked in batches this often
  const BATCH_MS = 100; // new hits move into the list every 0.1 s (gui.md §8)
  const GROUP_PAGE = 100; // file groups added to the list at a time

  let res = null; // the current result
  let cursor = null; // {g, h}: a group header (h = null) or a hit row
  let anchor = null; // Shift+click range start
  let selected = new Set();
  let filterText = '';
  let filterTimer = 0;
  let view = loadView(); // {expand, sort}
  let dateFrom = null; // the date filter, local midnight (inclusive)
  let dateTo = null; // … and the midnight after the last day (exclusive)
  // Freshness answers for the page (issue 18): one stat per shown file,
  // kept while the page lives, keyed by path and indexed time.
  const fresh = new Map();
  let freshQueue = [];
  let freshTimer = 0;

  function loadView() {
    try {
      return JSON.parse(localStorage.getItem(VIEW)) || {};
    } catch (e) {
      return {};
    }
  }
  function saveView() {
    localStorage.setItem(VIEW, JSON.stringify(view));
  }

  // Test hooks: milliseconds from a keystroke to the first hit on screen;
  // the query whose results the list shows complete (null while one runs).
  window.__fumibako = { timings: [], done: null };

  function init() {
    // ［すべて展開］ is remembered: later searches open their groups too.
    $('expand-all').addEventListener('click', () => {
      view.expand = true;
      saveView();
      toggleAll(true);
    });
    $('collapse-all').addEventListener('click', () => {
      view.expand = false;
      saveView();
      toggleAll(false);
    });
    $('sort').value = view.sort || '';
    $('sort').addEventListener('change', () => {
      view.sort = $('sort').value;
      saveView();
      if (res) reorder(res);
    });
    for (const id of ['date-from', 'date-to']) $(id).addEventListener('change', applyDates);
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
    list.addEventListener('contextmenu', onListContextMenu);
  }

  // clear empties the list.
  function clear() {
    res = null;
    cursor = null;
    selected = new Set();
    $('results').replaceChildren();
    $('counts').textContent = '';
    $('notes').textContent = '';
  }

  // start begins the list of a new search.
  function start(qs, query, typedAt) {
    clear();
    if (F.preview.clear) F.preview.clear();
    res = { qs, query, typedAt, hits: [], groups: [], byFile: new Map(), shown: 0, limit: GROUP_PAGE, flushTimer: 0, done: false, shownFirst: false, sortedLen: 0 };
    window.__fumibako.done = null;
    $('counts').textContent = '検索中…';
    return res;
  }

  // finish ends a search: m is its done line, or null after an error.
  function finish(r, m) {
    flush(r);
    if (view.sort && r === res) reorder(r);
    r.done = true;
    r.doneLine = m;
    if (r === res) window.__fumibako.done = r.query;
    if (m) showCounts();
    else if (r === res) $('counts').textContent = '';
  }

  // cancel ends the current search where it is (Esc, gui.md §4.3).
  function cancel() {
    if (!res || res.done) return;
    flush(res);
    res.done = true;
    $('counts').textContent = `中止しました（${res.hits.length.toLocaleString()} 件まで表示）`;
  }

  // focusFirst moves the focus from the box into the list.
  function focusFirst() {
    if (!res || !res.groups.length) return false;
    $('results').focus();
    if (!cursor) setCursor(items()[0]);
    return true;
  }

  function showCounts() {
    if (!res) return;
    const m = res.doneLine;
    const shown = res.hits.filter((h) => matchesFilter(h) && dateOK(h.group)).length;
    let text = m ? m.message : `検索中…（${res.hits.length.toLocaleString()} 件）`;
    if (filterText || dateFrom || dateTo) text += ` ・ ${res.hits.length.toLocaleString()} 件中 ${shown.toLocaleString()} 件を表示`;
    $('counts').textContent = text;
  }

  function addHit(r, h) {
    h.file = h.index + '\\' + h.path;
    h.seq = r.hits.length;
    r.hits.push(h);
    let g = r.byFile.get(h.file);
    if (!g) {
      g = { file: h.file, hit0: h, hits: [], places: [], placeSet: new Set(), open: false, el: null, head: null, body: null, rendered: 0, seq: r.groups.length };
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
    if (view.sort && r.groups.length > r.sortedLen) {
      reorder(r);
    } else {
      while (r.shown < r.groups.length && r.shown < r.limit) frag.append(groupEl(r.groups[r.shown++]));
      list.append(frag);
      more(r);
    }
    queueFresh(r);
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

  // Sort (issue 18): search order, path, modified date (newest first) or
  // hit count (most first); ties keep search order. The list is rebuilt in
  // the new order, a page of groups at a time as before.
  const sorters = {
    path: (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    date: (a, b) => (parseTime(b.hit0.modified) || 0) - (parseTime(a.hit0.modified) || 0),
    hits: (a, b) => b.hits.length - a.hits.length,
  };
  function reorder(r) {
    const cmp = sorters[view.sort];
    r.groups.sort((a, b) => (cmp && cmp(a, b)) || a.seq - b.seq);
    r.sortedLen = r.groups.length;
    const list = $('results');
    list.replaceChildren();
    const frag = document.createDocumentFragment();
    r.shown = 0;
    while (r.shown < r.groups.length && r.shown < r.limit) {
      const g = r.groups[r.shown++];
      frag.append(g.el || groupEl(g));
    }
    list.append(frag);
    more(r);
    queueFresh(r);
  }

  // The date filter: files whose indexed modification time is in the
  // range; a file whose time is unknown is shown only without a filter.
  function applyDates() {
    const day = (v, next) => {
      if (!v) return null;
      const [y, m, d] = v.split('-').map(Number);
      return new Date(y, m - 1, d + (next ? 1 : 0));
    };
    dateFrom = day($('date-from').value, false);
    dateTo = day($('date-to').value, true);
    if (!res) return;
    for (const g of res.groups) if (g.el) g.el.hidden = !groupVisible(g);
    showCounts();
  }
  function dateOK(g) {
    if (!dateFrom && !dateTo) return true;
    const t = parseTime(g.hit0.modified);
    return !!t && (!dateFrom || t >= dateFrom) && (!dateTo || t < dateTo);
  }

  // queueFresh asks the server, in batches, whether the files now shown
  // changed or vanished since they were indexed; the list never waits.
  function queueFresh(r) {
    for (let i = 0; i < r.shown; i++) {
      const g = r.groups[i];
      if (g.freshAsked) continue;
      g.freshAsked = true;
      const key = g.file + '|' + g.hit0.modified;
      const known = fresh.get(key);
      if (known !== undefined) {
        if (known !== 'pending') markFresh(g, known);
        else freshQueue.push(g);
        continue;
      }
      fresh.set(key, 'pending');
      freshQueue.push(g);
    }
    if (freshQueue.length && !freshTimer) freshTimer = setTimeout(sendFresh, FRESH_MS);
  }
  async function sendFresh() {
    freshTimer = 0;
    const batch = freshQueue;
    freshQueue = [];
    const files = [];
    const seen = new Set();
    for (const g of batch) {
      const key = g.file + '|' + g.hit0.modified;
      if (fresh.get(key) !== 'pending' || seen.has(key)) continue;
      seen.add(key);
      files.push({ path: g.file, modified: g.hit0.modified, size: g.hit0.size || 0 });
    }
    let states = {};
    if (files.length) {
      try {
        states = (await F.postJSON('/api/fresh', { files })).states || {};
      } catch (e) {
        states = {};
      }
      for (const f of files) fresh.set(f.path + '|' + f.modified, states[f.path] || null);
    }
    for (const g of batch) {
      const v = fresh.get(g.file + '|' + g.hit0.modified);
      if (v !== 'pending') markFresh(g, v);
    }
  }
  // markFresh shows 削除されています / インデックス作成後に変更されています
  // on the file's header and rows.
  function markFresh(g, v) {
    g.freshState = v;
    if (!g.freshEl) return;
    g.freshEl.textContent = v ? '⚠ ' + v.message : '';
    g.freshEl.hidden = !v;
    g.el.classList.toggle('stale', !!v);
    g.el.dataset.fresh = v ? v.state : '';
  }

  const appLetter = { excel: 'X', word: 'W', powerpoint: 'P', pdf: 'PDF', text: 'T', image: 'IMG' };

  function groupEl(g) {
    const h = g.hit0;
    const slash = h.path.lastIndexOf('\\');
    const name = h.path.slice(slash + 1);
    const folder = h.index + (slash >= 0 ? '\\' + h.path.slice(0, slash) : '');
    g.tw = el('span', { class: 'tw', text: '▸' });
    g.sum = el('span', { class: 'gsum' });
    g.freshEl = el('span', { class: 'fresh', hidden: true });
    g.head = el('div', { class: 'ghead', role: 'treeitem', title: F.open.fullPath(h) },
      g.tw, el('span', { class: 'app app-' + h.fileKind, text: appLetter[h.fileKind] || '?' }),
      el('span', { class: 'fname', text: name }), el('span', { class: 'folder', text: folder }), g.freshEl,
      el('span', { class: 'gdate', text: shownTime(h.modified), title: '更新日時（インデックス作成時）' }),
      el('span', { class: 'gsize', text: shownSize(h.size || 0, h.modified) }), g.sum);
    g.head.fgroup = g;
    // A collapsed group shows its first hit line (issue 18).
    g.first = el('div', { class: 'gfirst', title: '開くと該当行をすべて表示します' });
    g.first.fgroup = g;
    g.body = el('div', { class: 'gbody', hidden: true });
    g.el = el('div', { class: 'group' }, g.head, g.first, g.body);
    g.el.hidden = !groupVisible(g);
    updateHead(g);
    if (g.freshState !== undefined) markFresh(g, g.freshState);
    if (view.expand) toggle(g, true);
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
    const h0 = hits[0];
    if (h0 !== g.firstHit) {
      g.firstHit = h0;
      g.first.replaceChildren();
      if (h0) g.first.append(el('span', { class: 'place', text: h0.label }), el('span', { class: 'kind', text: h0.kind }), lineEl(h0));
    }
    g.first.hidden = g.open || !h0;
  }

  function toggle(g, open) {
    g.open = open === undefined ? !g.open : open;
    g.tw.textContent = g.open ? '▾' : '▸';
    g.body.hidden = !g.open;
    if (g.first) g.first.hidden = g.open || !g.firstHit;
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

  function matchesFilter(h) {
    if (!filterText) return true;
    const f = filterText.toLowerCase();
    return [h.file, h.placeLabel, h.kind, h.text].some((s) => s.toLowerCase().includes(f));
  }
  function groupVisible(g) {
    return dateOK(g) && (!filterText || g.hits.some(matchesFilter));
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
    if (it && it.h) F.preview.schedule(it.h);
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
      if (cursor.h) openHit(cursor.h, false, '', true);
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
    const head = e.target.closest('.ghead, .gfirst');
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

  // A right-click on a hit row opens its menu at the hit's place; on a
  // file header, the file's (gui.md §4.8).
  function onListContextMenu(e) {
    const row = e.target.closest('.hrow');
    const head = e.target.closest('.ghead');
    const h = row && row.fhit ? row.fhit : head && head.fgroup ? head.fgroup.hit0 : null;
    if (!h) return;
    e.preventDefault();
    F.open.menu(e.clientX, e.clientY, h, !!row);
  }

  function onListDblClick(e) {
    const row = e.target.closest('.hrow');
    if (row && row.fhit) openHit(row.fhit, false, '', true);
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
    const ok = await F.copyText(exportText(hits, res.query));
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

  return { init, clear, start, add: addHit, finish, cancel, focusFirst };
})();
