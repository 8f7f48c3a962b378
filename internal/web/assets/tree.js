// The search-target tree (reference/gui.md §4.2): indexes and their
// folders with tri-state checkboxes, sub-folders loaded when a node is
// opened, a grey （このフォルダ直下のファイル） child for a folder that has
// both files and sub-folders. Unchecked nodes are kept as exclusions
// [{path, subfolders}] (settings searchExcludes: subfolders false leaves
// out only the folder's own files), so an index added later starts
// checked; they are saved in settings.json (POST /api/excludes, handed
// out by GET /api/indexes), so every page on the workspace shares them, and
// sent with every search.
'use strict';

F.tree = (() => {
  const el = F.el;
  let excl = []; // [{path, subfolders}]
  let onChange = () => {};
  let root = null; // the container
  let nodes = []; // every node made, for redrawing the boxes
  const open = new Set(); // paths of opened nodes, kept across reloads

  const low = (s) => s.toLowerCase();
  const under = (p, a) => low(p) === low(a) || low(p).startsWith(low(a) + '\\');
  const parentOf = (p) => p.slice(0, p.lastIndexOf('\\'));

  function state(n) {
    if (n.kind === 'self') {
      return excl.some((e) => (e.subfolders && under(n.path, e.path)) || (!e.subfolders && low(e.path) === low(n.path))) ? 'off' : 'on';
    }
    if (excl.some((e) => e.subfolders && under(n.path, e.path))) return 'off';
    if (excl.some((e) => (under(e.path, n.path) && low(e.path) !== low(n.path)) || (!e.subfolders && low(e.path) === low(n.path)))) return 'mixed';
    return 'on';
  }

  function byPath(p) {
    return nodes.find((n) => n.kind !== 'self' && low(n.path) === low(p));
  }

  // split turns the exclusion of tree a into exclusions of everything in
  // it but the branch down to p (p's own tree is then included).
  function split(a, p) {
    excl = excl.filter((e) => !(e.subfolders && low(e.path) === low(a)));
    for (let level = a; low(level) !== low(p); ) {
      excl.push({ path: level, subfolders: false });
      const n = byPath(level);
      const rest = p.slice(level.length + 1);
      const next = level + '\\' + rest.split('\\')[0];
      for (const c of (n && n.children) || []) {
        if (c.kind !== 'self' && low(c.path) !== low(next)) excl.push({ path: c.path, subfolders: true });
      }
      level = next;
    }
  }

  function toggle(n) {
    const on = state(n) === 'off';
    if (n.kind === 'self') {
      if (on) {
        const a = excl.find((e) => e.subfolders && under(n.path, e.path));
        if (a) {
          split(a.path, n.path);
          // The folder's own files only: its sub-folders stay out.
          excl = excl.filter((e) => !under(e.path, n.path) || low(e.path) === low(n.path));
          for (const c of byPath(n.path).children || []) if (c.kind !== 'self') excl.push({ path: c.path, subfolders: true });
        }
        excl = excl.filter((e) => e.subfolders || low(e.path) !== low(n.path));
      } else {
        excl.push({ path: n.path, subfolders: false });
      }
    } else if (on) {
      const a = excl.find((e) => e.subfolders && under(n.path, e.path) && low(e.path) !== low(n.path));
      excl = excl.filter((e) => !under(e.path, n.path));
      if (a) split(a.path, n.path);
    } else {
      excl = excl.filter((e) => !under(e.path, n.path));
      excl.push({ path: n.path, subfolders: true });
    }
    redraw();
    onChange();
  }

  function redraw() {
    for (const n of nodes) {
      const s = state(n);
      n.box.checked = s === 'on';
      n.box.indeterminate = s === 'mixed';
    }
  }

  // node makes one row: twisty, checkbox, name; children below.
  function node(path, name, kind, expandable) {
    const n = { path, name, kind, children: null };
    n.box = el('input', { type: 'checkbox' });
    // The box's own toggle is overwritten by the tree's state (a partly
    // checked node becomes checked or unchecked as toggle decides).
    n.box.addEventListener('change', () => toggle(n));
    n.tw = el('span', { class: 'tw', text: expandable ? '▸' : '' });
    n.kids = el('div', { class: 'tkids', hidden: true });
    const label = el('label', { class: 'tname' + (kind === 'self' ? ' tself' : '') }, n.box, ' ' + name);
    n.el = el('div', { class: 'tnode', 'data-path': path, 'data-kind': kind }, el('div', { class: 'trow' }, n.tw, label), n.kids);
    if (expandable) n.tw.addEventListener('click', () => expand(n, n.kids.hidden));
    nodes.push(n);
    return n;
  }

  async function expand(n, show) {
    if (!show) {
      n.kids.hidden = true;
      n.tw.textContent = '▸';
      open.delete(low(n.path));
      return;
    }
    open.add(low(n.path));
    n.tw.textContent = '▾';
    n.kids.hidden = false;
    if (n.children) return;
    let r;
    try {
      r = await F.get('/api/tree?path=' + encodeURIComponent(n.path));
    } catch (e) {
      return;
    }
    n.children = [];
    if (r.files && r.folders.length) n.children.push(node(n.path, '（このフォルダ直下のファイル）', 'self', false));
    for (const f of r.folders) n.children.push(node(n.path + '\\' + f.name, f.name, 'folder', f.subfolders));
    n.kids.replaceChildren(...n.children.map((c) => c.el));
    if (!n.children.length) n.tw.textContent = '';
    redraw();
    for (const c of n.children) if (c.kind !== 'self' && open.has(low(c.path))) expand(c, true);
  }

  function init(container, saved, changed) {
    root = container;
    excl = saved || [];
    onChange = changed;
  }

  // reload draws the indexes again (after each run), keeping checks and
  // opened nodes.
  function reload(indexes) {
    nodes = [];
    root.replaceChildren();
    for (const name of indexes) {
      const n = node(name, name, 'index', true);
      root.append(n.el);
      if (open.has(low(name))) expand(n, true);
    }
    redraw();
  }

  // set replaces the exclusions (as saved in the settings) and redraws.
  function set(list) {
    excl = (list || []).map((e) => ({ path: e.path, subfolders: !!e.subfolders }));
    redraw();
  }

  function setAll(on, indexes) {
    excl = on ? [] : indexes.map((n) => ({ path: n, subfolders: true }));
    redraw();
    onChange();
  }

  // anyOn reports whether something is left to search.
  const anyOn = (indexes) => indexes.some((n) => !excl.some((e) => e.subfolders && low(e.path) === low(n)));

  function params(p) {
    for (const e of excl) p.append(e.subfolders ? 'exclude' : 'excludeFiles', e.path);
  }

  return { init, reload, set, setAll, anyOn, params, exclusions: () => excl };
})();
