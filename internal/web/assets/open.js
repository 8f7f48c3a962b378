// Acting on a hit's file (reference/gui.md §4.6–§4.8, search.md §9): the
// open menu (開く / 読み取り専用で開く / コピーを新規に開く, the default
// mode first and bold), ［フォルダを開く］ and ［パスをコピー］, on the
// preview's header and, by right-click, on a hit row and a file header.
'use strict';

F.open = (() => {
  const el = F.el;
  // From GET /api/indexes: the settings' openMode.
  let info = { openMode: 'normal' };
  const modeLabels = { normal: '開く', readOnly: '読み取り専用で開く', new: 'コピーを新規に開く' };
  const modes = ['normal', 'readOnly', 'new'];

  function setIndexes(r) {
    info = { openMode: r.openMode || 'normal' };
  }

  // fullPath is the file's full source path as the server resolved it
  // from the index's source folder (the hit's fullPath), else the
  // relative `<folder>\<file>` when the folder is unknown (search.md §8).
  function fullPath(h) {
    return h.fullPath || h.file;
  }

  async function copyPath(h) {
    const p = fullPath(h);
    if (await F.copyText(p)) F.status('パスをコピーしました：' + p);
    else F.status('パスをコピーできませんでした。', true);
  }

  // open opens the hit's file in a mode (empty: the settings' default);
  // atPlace: Excel opens at the hit's sheet and cell.
  function open(h, mode, atPlace) {
    return F.hits.openHit(h, false, mode || '', atPlace);
  }

  // menu shows the actions for a hit (row: at its place) or a file header
  // at x, y; Esc or a click elsewhere closes it.
  function menu(x, y, h, atPlace) {
    close();
    const m = el('div', { id: 'open-menu', class: 'menu', role: 'menu' });
    const item = (id, text, fn, bold) => {
      const b = el('button', { type: 'button', role: 'menuitem', id, class: bold ? 'default' : null, text, onclick: () => {
        close();
        fn();
      } });
      m.append(b);
      return b;
    };
    const ordered = [info.openMode, ...modes.filter((x) => x !== info.openMode)];
    for (const mode of ordered) item('open-' + mode, modeLabels[mode], () => open(h, mode, atPlace), mode === info.openMode);
    m.append(el('hr'));
    item('open-folder', 'フォルダを開く', () => F.hits.openHit(h, true));
    item('copy-path', 'パスをコピー', () => copyPath(h));
    document.body.append(m);
    const r = m.getBoundingClientRect();
    m.style.left = Math.max(0, Math.min(x, window.innerWidth - r.width - 4)) + 'px';
    m.style.top = Math.max(0, Math.min(y, window.innerHeight - r.height - 4)) + 'px';
    m.querySelector('button').focus();
    setTimeout(() => document.addEventListener('mousedown', outside, true));
  }
  function outside(e) {
    if (!e.target.closest('#open-menu')) close();
  }
  function close() {
    document.removeEventListener('mousedown', outside, true);
    const m = document.getElementById('open-menu');
    if (m) m.remove();
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });

  // modeMenu is the preview's ［▾］: the three modes only; the one picked
  // opens the hit and becomes the default (gui.md §4.8: openMode).
  function modeMenu(anchor, h) {
    const r = anchor.getBoundingClientRect();
    menu(r.left, r.bottom, h, true);
    const m = document.getElementById('open-menu');
    for (const x of m.querySelectorAll('#open-folder, #copy-path, hr')) x.remove();
    for (const mode of modes) m.querySelector('#open-' + mode).addEventListener('click', () => remember(mode));
  }
  // The menus take the new default at once: saving settings.json may
  // wait on the disk (fsync) for a while, and a menu opened meanwhile
  // lists the mode just picked first; a refused save puts the old one
  // back.
  async function remember(mode) {
    const before = info.openMode;
    if (mode === before) return;
    info.openMode = mode;
    try {
      const r = await F.postJSON('/api/open/mode', { mode });
      info.openMode = r.openMode;
    } catch (e) {
      info.openMode = before;
      F.status(e.message, true);
    }
  }

  return { setIndexes, fullPath, copyPath, open, menu, modeMenu, close };
})();
