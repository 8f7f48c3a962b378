// Hit lines (reference/search.md §7, §8): Excel rows as cells with the
// matches marked, the export format for copy, and opening the original.
'use strict';

F.hits = (() => {
  const el = F.el;
  const enc = new TextEncoder();
  const dec = new TextDecoder();

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
        // A match far into a long cell is brought into the cell's width.
        const from = Math.min(leadStart(b, s, (h.matches || []).filter(([ms]) => ms < e), 6), e);
        if (from > s) c.append('…');
        c.append(marked(b, from, e, h.matches, shownCell));
        wrap.append(c);
      }
      // A row whose first match is far to the right starts one cell
      // before it, after a … cell, so that the match is in view.
      const cellsShown = [...wrap.children];
      const k = cellsShown.findIndex((c) => c.querySelector('mark'));
      if (k > 2) {
        for (const c of cellsShown.slice(0, k - 1)) c.remove();
        wrap.prepend(el('span', { class: 'cell skipped', text: '…' }));
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
    const cut = leadStart(b, s, h.matches);
    if (cut > s) span.append('…');
    span.append(marked(b, cut, e, h.matches, show));
    return span;
  }

  // leadStart is where a shown line starts so that its first match is in
  // view (issue 32): the server cut the line 200 characters before the
  // match (search.md §3, the CLI's rule), which the row's one line cannot
  // show at 1366 or 1024 px; the row starts leadChars() characters before
  // the match instead, with … in front. The title keeps the whole line.
  function leadStart(b, s, matches, lead) {
    const first = (matches || []).find(([ms]) => ms >= s);
    if (!first) return s;
    let i = first[0];
    for (let n = lead === undefined ? leadChars() : lead; n > 0 && i > s; n--) {
      i--;
      while (i > s && (b[i] & 0xc0) === 0x80) i--; // back to the start of a UTF-8 character
    }
    return i;
  }

  // leadChars is a third of the line column in full-width characters
  // (12 px), measured on the results list as it is now.
  function leadChars() {
    const list = document.getElementById('results');
    const w = list ? list.clientWidth - 300 : 600;
    return Math.max(6, Math.floor(w / 12 / 3));
  }

  // Copy and export in the format of search_results.txt (search.md §8),
  // every cell that Excel would read as a formula when pasted neutralised
  // as search.SafeCell does (a leading '; plain signed numbers kept).
  const formulaStart = (s) => /^[=+\-@\t\r]/.test(s);
  const plainNumber = (s) => /^[+-](\d+|\d{1,3}(,\d{3})+)(\.\d+)?%?$/.test(s);
  const safeCell = (s) => (formulaStart(s) && !plainNumber(s) ? "'" + s : s);
  function safeField(f) {
    if (!f.startsWith('"')) return safeCell(f);
    const inner = f.slice(1);
    return formulaStart(inner) && !plainNumber(inner.replace(/"$/, '')) ? `"'${inner}` : f;
  }
  // excelFields splits an Excel line as search.Fields does: TAB separates
  // cells, a cell that starts with " runs to its closing ".
  function excelFields(line) {
    const out = [];
    for (let i = 0; ; ) {
      const start = i;
      if (line[i] === '"') {
        for (i++; i < line.length; i++) {
          if (line[i] !== '"') continue;
          if (line[i + 1] === '"') {
            i++;
            continue;
          }
          i++;
          break;
        }
      }
      const j = line.indexOf('\t', i);
      if (j < 0) {
        out.push(line.slice(start));
        return out;
      }
      out.push(line.slice(start, j));
      i = j + 1;
    }
  }
  function exportLine(h) {
    if (h.fileKind === 'excel') return excelFields(h.text).map(safeField).join('\t').replaceAll('\u2028', '\n');
    return h.text
      .split('\t')
      .map(safeCell)
      .map((f) => (f.startsWith('"') ? '"' + f.replaceAll('"', '""') + '"' : f))
      .join('\t');
  }
  function letters(i) {
    let s = '';
    for (i++; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
    return s;
  }
  function exportText(hits, query) {
    let cols = 0;
    for (const h of hits) cols = Math.max(cols, fields(enc.encode(h.text)).length);
    const head = ['ファイル名', '場所', '種別', '行'];
    for (let i = 0; i < cols; i++) head.push(letters(i));
    const lines = [`【検索文字列\u3000${query}】 ${hits.length} 件`, head.join('\t')];
    for (const h of hits) {
      if (isName(h)) lines.push([safeCell(h.file), '', h.kind, '', safeCell(h.text)].join('\t'));
      else lines.push([safeCell(h.file), safeCell(h.placeLabel), h.kind, h.row, exportLine(h)].join('\t'));
    }
    return lines.join('\r\n') + '\r\n' + (hits.length ? '\r\n' : '');
  }

  // A file-name hit (search.KindFileName): its line is the path.
  const isName = (h) => h.kind === 'ファイル名';

  // Times as search.FormatModified writes them (local time); a zero Go
  // time (year 1) is unknown.
  const pad = (n) => String(n).padStart(2, '0');
  function parseTime(s) {
    if (!s) return null;
    const d = new Date(s);
    return isNaN(d) || d.getFullYear() < 1900 ? null : d;
  }
  // shownTime is the result list's date column: 2026/12/01 18:11.
  function shownTime(s) {
    const d = parseTime(s);
    if (!d) return '';
    return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  function shownSize(n, modified) {
    if (!parseTime(modified)) return '';
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
    if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
    return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
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

  // Opening the original (search.md §9): only from this machine; the
  // server refuses otherwise and the download link stays. mode: normal,
  // readOnly, new or '' (the settings' openMode); atPlace: Excel opens at
  // the hit's sheet and cell.
  async function openHit(h, folder, mode, atPlace) {
    if (!h) return;
    // A network folder may take a while to answer (search.md §9).
    F.status(`元のファイルを確かめています…：${h.file}（共有フォルダに接続できないときは、しばらくかかります）`);
    const body = { path: h.file, folder: !!folder, mode: mode || '' };
    if (atPlace && !isName(h)) Object.assign(body, { place: h.place || '', cell: h.cell || '' });
    try {
      const r = await F.postJSON('/api/open', body);
      F.status(r.message);
    } catch (e) {
      const b = e.body || {};
      if (b.dialog && (await sourceDialog(h, b))) return openHit(h, folder, mode, atPlace);
      F.status(e.message, true);
    }
  }

  // sourceDialog asks where a hit's index lives (search.md §9): for a
  // received index, 元のフォルダを確かめてください with ［このフォルダを使う］
  // and ［フォルダを選ぶ］ (and a warning for a network folder); for a file
  // not found, <ファイル名> が見つかりません with ［フォルダを選ぶ］. A picked
  // folder is searched by the server in the relative folders' order and
  // stored for the whole index. Resolves true when the open should be
  // tried again.
  function sourceDialog(h, b) {
    return F.dialog((box, close) => {
      const el = F.el;
      const input = el('input', { type: 'text', id: 'source-folder', value: b.dialog === 'confirm' ? b.folder || '' : '', placeholder: 'フォルダ（例: \\\\server\\共有\\営業）' });
      const err = el('div', { class: 'field-error', role: 'alert' });
      const send = async (body) => {
        err.textContent = '';
        try {
          const r = await F.postJSON('/api/source', body);
          F.status(r.warning ? r.message + ' ※ ' + r.warning : r.message);
          close(true);
        } catch (e) {
          err.textContent = e.message;
        }
      };
      const pick = () => send({ path: h.file, folder: input.value });
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') pick();
      });
      box.append(el('h2', { id: 'dialog-title', text: b.title || b.message }));
      if (b.dialog === 'confirm') box.append(el('p', { text: b.message }));
      if (b.warning) box.append(el('p', { class: 'remark fact-lost', text: '⚠ ' + b.warning }));
      box.append(el('label', { for: 'source-folder', text: '元のフォルダ' }), input, err);
      const buttons = el('div', { class: 'buttons' });
      if (b.dialog === 'confirm') {
        buttons.append(el('button', { type: 'button', class: 'primary', id: 'source-use', text: 'このフォルダを使う',
          onclick: () => (input.value === b.folder ? send({ index: b.index, folder: b.folder }) : pick()) }));
      }
      buttons.append(
        el('button', { type: 'button', class: b.dialog === 'confirm' ? '' : 'primary', id: 'source-pick', text: 'フォルダを選ぶ', onclick: pick }),
        el('button', { type: 'button', id: 'dialog-cancel', autofocus: true, text: 'キャンセル', onclick: () => close(false) }));
      box.append(buttons);
    });
  }

  return { fields, lineEl, shownLine, letters, exportText, matchCells, openHit, isName, parseTime, shownTime, shownSize };
})();
