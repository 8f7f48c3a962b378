// The preview pane (reference/gui.md §4.6): the place around the selected
// hit, Excel as a grid with row numbers and column letters.
'use strict';

F.preview = (() => {
  const $ = F.$;
  const el = F.el;
  const { letters, shownLine, matchCells, openHit } = F.hits;
  const PREVIEW_MS = 120; // preview reload debounce (gui.md §4.6)
  let previewSeq = 0;
  let previewTimer = 0;
  let previewHit = null;

  function init() {
    $('preview-open').addEventListener('click', () => openHit(previewHit, false, '', true));
    $('preview-open-mode').addEventListener('click', (e) => F.open.modeMenu(e.currentTarget, previewHit));
    $('preview-folder').addEventListener('click', () => openHit(previewHit, true));
    $('preview-copy-path').addEventListener('click', () => F.open.copyPath(previewHit));
    splitter();
  }

  // Preview (gui.md §4.6).
  function schedulePreview(h) {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(() => loadPreview(h), PREVIEW_MS);
  }

  async function loadPreview(h) {
    const my = ++previewSeq;
    previewHit = h;
    $('preview-title').textContent = `${h.file} ・ ${h.label} ・ ${h.kind}`;
    $('preview-title').title = F.open.fullPath(h);
    for (const id of ['preview-open', 'preview-open-mode', 'preview-folder', 'preview-copy-path']) $(id).disabled = false;
    const dl = $('preview-download');
    dl.href = '/api/file?path=' + encodeURIComponent(h.file);
    dl.hidden = false;
    const body = $('preview-body');
    const fit = Math.max(5, Math.min(101, Math.floor((body.clientHeight - 24) / 22)));
    const before = Math.floor((fit - 1) / 2);
    const after = fit - 1 - before;
    const cells = matchCells(h);
    const col = cells.size ? Math.min(...cells) : 0;
    const p = new URLSearchParams({ path: h.file, place: h.place, row: h.line || h.row, before, after, col });
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
    if (!v) v = { grid: false, firstCol: 0, rows: [{ n: h.line || h.row, cells: [h.text] }] };
    const table = el('table', { class: 'sheet' + (v.grid ? '' : ' paras'), id: 'preview-sheet' });
    const width = v.rows.reduce((m, r) => Math.max(m, r.cells.length), 1);
    // Column letters for a sheet only: a Word, PDF or text place is one
    // column of paragraphs, which a header `1` only confused (issue 32).
    const head = el('thead', {});
    if (v.grid) {
      const hr = el('tr', {}, el('th', {}));
      for (let i = 0; i < width; i++) hr.append(el('th', { text: letters(v.firstCol + i) }));
      head.append(hr);
    }
    // The sheet's first row, frozen above the rows around the hit.
    if (v.header) {
      const fr = el('tr', { class: 'frozen' }, el('th', { text: v.header.n }));
      for (let i = 0; i < width; i++) {
        const t = v.header.cells[i] || '';
        fr.append(el('td', { title: t.length > 0 ? t.slice(0, 1000) : null, text: [...t].length > 300 ? [...t].slice(0, 300).join('') + '…' : t }));
      }
      head.append(fr);
    }
    table.append(head);
    const tb = el('tbody');
    // A gap row (⋯) wherever row numbers jump: after the frozen row 1
    // and between rows the place does not hold (issue 32).
    let prevN = v.header ? v.header.n : 0;
    const gap = () => el('tr', { class: 'gap' }, el('th', { text: '⋯' }), el('td', { colspan: width, text: '⋯' }));
    for (const r of v.rows) {
      if (prevN > 0 && r.n > prevN + 1) tb.append(gap());
      prevN = r.n;
      const isHit = r.n === (h.line || h.row);
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

  // clear empties the pane (a new search: the previous preview must not
  // stay when nothing is found, issue 18).
  function clear() {
    clearTimeout(previewTimer);
    previewSeq++;
    previewHit = null;
    $('preview-title').textContent = '';
    $('preview-title').title = '';
    for (const id of ['preview-open', 'preview-open-mode', 'preview-folder', 'preview-copy-path']) $(id).disabled = true;
    $('preview-download').hidden = true;
    $('preview-note').textContent = '';
    $('preview-body').replaceChildren(el('div', { class: 'empty-small', text: '行を選ぶと、その前後を表示します。' }));
  }

  return { init, schedule: schedulePreview, clear };
})();
