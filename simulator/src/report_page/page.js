// The simulator report's interactions, all within the page (it fetches nothing): a click
// on a column's header sorts that table by the column (again: the other way round), the
// kernel filter hides the rows and source notes of other kernels, and a click on a
// finding's line scrolls the source view to it and highlights every line of the finding
// (both accesses of a race) with the finding's notes (which name the invocations).
(function () {
  'use strict';

  const numeric = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?%?$/i;
  const collator = new Intl.Collator('en', {numeric: true, sensitivity: 'base'});

  // A cell's sort key: its data-v if it has one, else its text; null when empty, so that
  // figures which do not apply to a row sort last in either direction.
  function sortKey(cell) {
    if (!cell) return null;
    const text = (cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent).trim();
    if (text === '') return null;
    return numeric.test(text) ? parseFloat(text) : text;
  }

  function compare(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return collator.compare(String(a), String(b));
  }

  function sortBy(th) {
    const table = th.closest('table');
    const column = Array.prototype.indexOf.call(th.parentNode.children, th);
    // Figures where more is worse start largest first (data-first), the others smallest first.
    const first = th.dataset.first === 'descending' ? 'descending' : 'ascending';
    const other = first === 'ascending' ? 'descending' : 'ascending';
    const order = th.getAttribute('aria-sort') === first ? other : first;
    table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', order);
    const sign = order === 'ascending' ? 1 : -1;
    const body = table.tBodies[0];
    const rows = Array.from(body.rows, function (row, i) { return {row: row, i: i, key: sortKey(row.cells[column])}; });
    rows.sort(function (x, y) {  // ties keep their current order
      if (x.key === null || y.key === null) return (x.key === null) - (y.key === null) || x.i - y.i;
      return sign * compare(x.key, y.key) || x.i - y.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }

  function filter(kernel) {
    const other = function (el) { return kernel !== '' && el.dataset.kernel !== kernel; };
    document.querySelectorAll('tbody > tr[data-kernel]').forEach(function (row) { row.hidden = other(row); });
    document.querySelectorAll('.note[data-kernel]').forEach(function (note) { note.hidden = other(note); });
    document.querySelectorAll('table').forEach(function (table) {
      const rows = table.querySelectorAll('tbody > tr[data-kernel]');
      if (rows.length === 0) return;
      const shown = Array.from(rows).filter(function (row) { return !row.hidden; }).length;
      if (kernel === '') table.deleteCaption();
      else table.createCaption().textContent = shown + ' of ' + rows.length + ' rows: kernel ' + kernel;
    });
    document.getElementById('filter-status').textContent = kernel === '' ? '' : 'only kernel ' + kernel + ' is shown';
  }

  function clearHighlights() {
    document.querySelectorAll('.hl').forEach(function (el) { el.classList.remove('hl'); });
  }

  // Scrolls `focus` to the middle of the window, then, if all of `lines` fit in the window
  // but some are outside it, to the middle of them all.
  function reveal(lines, focus) {
    focus.scrollIntoView({block: 'center'});
    let top = Infinity, bottom = -Infinity;
    lines.forEach(function (line) {
      const r = line.getBoundingClientRect();
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    });
    const room = window.innerHeight;
    if (bottom - top <= 0.9 * room && (top < 0 || bottom > room)) window.scrollBy(0, (top + bottom - room) / 2);
  }

  // Follows a link to a source line: highlights the lines of every link in the link's row
  // (a race has two), the finding's notes and its row. False when the line is not on the page.
  function follow(link) {
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return false;
    const row = link.closest('tr');
    const links = row ? Array.from(row.querySelectorAll('a.src')) : [link];
    const lines = [];
    links.forEach(function (a) {
      const line = document.getElementById(decodeURIComponent(a.hash.slice(1)));
      if (line && lines.indexOf(line) < 0) lines.push(line);
    });
    clearHighlights();
    lines.forEach(function (line) { line.classList.add('hl'); });
    const finding = row ? row.dataset.finding : undefined;
    if (finding) {
      row.classList.add('hl');
      document.querySelectorAll('.note[data-finding="' + finding + '"]').forEach(function (note) {
        note.classList.add('hl');
      });
    }
    reveal(lines, target);
    history.replaceState(null, '', link.hash);
    return true;
  }

  document.addEventListener('click', function (event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const th = event.target.closest('thead th');
    if (th) {
      sortBy(th);
      return;
    }
    const link = event.target.closest('a.src');
    if (link && follow(link)) event.preventDefault();
  });
  document.addEventListener('keydown', function (event) {
    const th = event.target.closest ? event.target.closest('thead th') : null;
    if (th && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      sortBy(th);
    }
  });

  document.querySelectorAll('thead th').forEach(function (th) {
    th.tabIndex = 0;
    if (!th.title) th.title = 'sort by ' + th.textContent;
  });
  const select = document.getElementById('kernel-filter');
  select.addEventListener('change', function () { filter(select.value); });
  if (select.value !== '') filter(select.value);  // a reload keeps the choice
  document.getElementById('controls').hidden = false;
  const start = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (start && start.matches('tr[id^="src-"]')) start.classList.add('hl');
})();
