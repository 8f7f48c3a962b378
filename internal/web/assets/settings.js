// The 設定 screen (reference/gui.md §5; issue 32): every key of
// workspace.SettingKeys (GET /api/settings), grouped by section, each
// saved to settings.json as soon as it changes (POST /api/settings), the
// same keys `fumibako settings` shows.
'use strict';

F.settings = (() => {
  const $ = F.$;
  const el = F.el;
  // The kind chips' names on the search page.
  const KIND_NAMES = { excel: 'Excel', word: 'Word', powerpoint: 'PowerPoint', pdf: 'PDF', text: 'Text', image: '画像' };

  function init() {}

  async function refresh() {
    let r;
    try {
      r = await F.get('/api/settings');
    } catch (e) {
      F.status(e.message, true);
      return;
    }
    const box = $('settings-body');
    box.replaceChildren();
    const n = $('settings-notice');
    n.textContent = r.notice || '';
    n.hidden = !r.notice;
    let section = null;
    let table = null;
    for (const k of r.settings) {
      if (k.section !== section) {
        section = k.section;
        table = el('table', { class: 'settings-table' });
        box.append(el('h2', { text: section }), table);
        if (section === 'インデックス作成') {
          box.insertBefore(el('p', { class: 'muted', text: 'フォルダごとの設定（取り込む、画像も OCR）は［インデックス管理］の各行で変えます。' }), table);
        }
      }
      table.append(row(k));
    }
    document.body.dataset.settings = '1';
  }

  // row is one key: its label, the control for its type, its help and
  // where the answer of a save goes.
  function row(k) {
    const id = 'set-' + k.key.replace(/\W/g, '-');
    const msg = el('div', { class: 'field-error', role: 'alert' });
    const save = async (value) => {
      msg.textContent = '';
      msg.classList.remove('saved');
      try {
        const r = await F.postJSON('/api/settings', { values: { [k.key]: value } });
        msg.textContent = '✓ 保存しました';
        msg.classList.add('saved');
        F.status(r.message);
      } catch (e) {
        msg.textContent = e.message;
      }
    };
    let control;
    switch (k.type) {
      case 'bool':
        control = el('input', { type: 'checkbox', id, 'data-key': k.key });
        control.checked = !!k.value;
        control.addEventListener('change', () => save(control.checked));
        break;
      case 'int':
        control = el('input', { type: 'number', id, 'data-key': k.key, min: k.min, max: k.max, step: 1, value: k.value, class: 'num' });
        control.addEventListener('change', () => save(control.value === '' ? 0 : Number(control.value)));
        break;
      case 'choice':
        control = el('select', { id, 'data-key': k.key }, ...k.choices.map((c) => el('option', { value: c, text: c, selected: c === k.value })));
        control.addEventListener('change', () => save(control.value));
        break;
      case 'list': {
        control = el('span', { id, 'data-key': k.key, class: 'choices' });
        const boxes = k.choices.map((c) => {
          const b = el('input', { type: 'checkbox', value: c });
          b.checked = (k.value || []).includes(c);
          b.addEventListener('change', () => save(boxes.filter((x) => x.checked).map((x) => x.value)));
          control.append(el('label', { class: 'chip', title: c }, b, ' ' + (KIND_NAMES[c] || c)));
          return b;
        });
        break;
      }
      default:
        control = el('input', { type: 'text', id, 'data-key': k.key, value: k.value || '', readonly: !!k.readOnly, class: 'wide' });
        if (!k.readOnly) control.addEventListener('change', () => save(control.value));
    }
    return el('tr', { 'data-key': k.key },
      el('th', {}, el('label', { for: id, text: k.label }), el('div', { class: 'key', text: k.key })),
      el('td', {}, control, el('div', { class: 'muted help', text: k.help }), msg));
  }

  return { init, refresh };
})();
