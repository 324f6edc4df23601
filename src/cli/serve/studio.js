// The studio: the puzzle files to open (or a new one written from a board
// and a piece), an editor whose text the server checks as it is typed (the
// error flagged under its character, with the command line's words), what
// `engine check` knows beside it, searches run on the server and drawn by
// the HTML player's code as they stream in (two side by side), the puzzle
// maker, and the archive. Plain JavaScript, no build step; everything from a puzzle or a run
// is written with textContent, never as HTML. The address may say what to
// do on opening: #open=NAME opens a listed puzzle, #text=RON puts text in
// the editor, and &run (or &run=SOLVER) runs it.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const text = $('text');
  // The board's most pixels: the player sits under the editor.
  const BOARD = 440;
  const NEW = 'Puzzle(\n    name: "New puzzle",\n    board: "5x5",\n    piece: "knight",\n    tour: Open,\n)\n';
  // What the page did, for its tests and for anyone curious.
  const state = { checks: 0, checked: null, run: null, samples: 0, events: 0, report: null, runs: [], saved: [], made: null, shelf: null, shown: null };
  window.engineStudio = state;
  // The second search chooses among the same solvers as the first.
  for (const o of $('solver').options) if (o.value) $('solver2').append(o.cloneNode(true));

  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers['Content-Type'] = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
    }
    const r = await fetch(path, init);
    const type = r.headers.get('Content-Type') || '';
    const value = type.startsWith('application/json') ? await r.json() : await r.text();
    return { ok: r.ok, status: r.status, value };
  }

  // ---- The puzzle files.
  let fileName = 'puzzle.ron';
  async function list() {
    const r = await call('GET', '/api/puzzles');
    const note = $('file-note');
    if (!r.ok) {
      note.textContent = r.value.error || 'the puzzles cannot be listed';
      note.className = 'bad';
      return;
    }
    for (const name of r.value.puzzles) {
      const o = document.createElement('option');
      o.value = name;
      o.textContent = name;
      $('open').append(o);
    }
    note.textContent = r.value.puzzles.length + ' in ' + r.value.dir;
    note.className = '';
  }

  async function open(name) {
    if (!name) {
      fileName = 'puzzle.ron';
      setText(NEW);
      return;
    }
    const r = await call('GET', '/api/puzzles/' + encodeURIComponent(name));
    if (!r.ok) {
      $('file-note').textContent = r.value.error || 'the puzzle cannot be opened';
      $('file-note').className = 'bad';
      return;
    }
    $('open').value = name;
    fileName = name;
    setText(r.value.text);
  }

  function setText(t) {
    text.value = t;
    text.scrollTop = 0;
    scheduleCheck(0);
  }

  on($('open'), 'change', () => open($('open').value));
  on($('download-puzzle'), 'click', () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text.value], { type: 'text/plain' }));
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });

  function on(target, type, f) {
    target.addEventListener(type, f);
  }

  // ---- Checking as the user types: the newest answer wins.
  let timer = null;
  let asked = 0;
  function scheduleCheck(delay) {
    clearTimeout(timer);
    timer = setTimeout(check, delay);
  }
  on(text, 'input', () => scheduleCheck(300));
  on(text, 'scroll', () => {
    $('backdrop').scrollTop = text.scrollTop;
    $('backdrop').scrollLeft = text.scrollLeft;
    placeFlag();
  });

  async function check() {
    const mine = ++asked;
    let r;
    try {
      r = await call('POST', '/api/check?name=' + encodeURIComponent(fileName), text.value);
    } catch (e) {
      if (mine === asked) showStatus('bad', 'the studio does not answer: ' + e);
      return;
    }
    if (mine !== asked) return;
    state.checks += 1;
    state.checked = r.value;
    if (!r.ok) {
      flag(null);
      showStatus('bad', r.value.error || 'the check failed');
      return;
    }
    const v = r.value;
    if (v.error) {
      flag(v.error);
      showStatus('bad', v.error.text);
      $('check').textContent = 'The puzzle has a mistake: once it is mended, what is known of it shows here.';
    } else {
      flag(null);
      showStatus('good', v.stopped ? v.stopped : v.impossible ? 'The puzzle is valid; a proof rules every tour out.' : 'The puzzle is valid.');
      $('check').textContent = v.report || '';
    }
  }

  function showStatus(kind, words) {
    $('status').className = kind;
    $('status').textContent = words;
  }

  // The error's place in the text: line and column (in characters, from 1).
  function offsetOf(t, line, col) {
    let at = 0;
    for (let l = 1; l < line; l++) {
      const nl = t.indexOf('\n', at);
      if (nl < 0) return t.length;
      at = nl + 1;
    }
    const chars = Array.from(t.slice(at));
    return at + chars.slice(0, Math.max(0, col - 1)).join('').length;
  }

  // Marks the offending characters in the backdrop under the text, and
  // puts the message just under them.
  let flagged = null;
  function flag(error) {
    const back = $('backdrop');
    const t = text.value;
    back.replaceChildren();
    flagged = null;
    $('flag').hidden = true;
    if (!error || !error.line) {
      back.textContent = t + '\n';
      return;
    }
    const start = offsetOf(t, error.line, error.col);
    let end = start;
    const chars = Array.from(t.slice(start));
    end = start + chars.slice(0, Math.max(1, error.width)).join('').length;
    const lineEnd = t.indexOf('\n', start);
    if (lineEnd >= 0) end = Math.min(end, Math.max(lineEnd, start + 1));
    const mark = document.createElement('mark');
    // An error past the last character (a missing end) marks a space.
    mark.textContent = start < t.length && t[start] !== '\n' ? t.slice(start, end) : ' ';
    back.append(document.createTextNode(t.slice(0, start)), mark,
      document.createTextNode((mark.textContent === ' ' ? t.slice(start) : t.slice(end)) + '\n'));
    flagged = { mark, words: error.message + (error.help ? ' (' + error.help + ')' : '') };
    placeFlag();
  }

  function placeFlag() {
    const f = $('flag');
    if (!flagged) return;
    const back = $('backdrop');
    const top = flagged.mark.offsetTop + flagged.mark.offsetHeight - back.scrollTop + 6;
    const left = flagged.mark.offsetLeft - back.scrollLeft;
    f.textContent = flagged.words;
    f.hidden = top < 0 || top > back.clientHeight;
    const width = back.clientWidth;
    const x = Math.max(0, Math.min(left - 8, width - Math.min(460, width)));
    f.style.top = top + 'px';
    f.style.left = x + 'px';
    f.style.setProperty('--arrow', Math.max(4, left - x) + 'px');
  }
  on(window, 'resize', placeFlag);

  // ---- Running: each search streams in and the player grows with it;
  // two searches of the same puzzle run side by side, one panel each.
  let streams = [];
  let jobs = [];
  let live = null;
  let page = null;
  const buttons = ['pause', 'step', 'resume', 'stop'];
  function setButtons(running, paused) {
    $('run').disabled = running;
    $('pause').disabled = !running || paused;
    $('step').disabled = !running;
    $('resume').disabled = !running || !paused;
    $('stop').disabled = !running;
  }
  function runState(words, bad) {
    $('run-state').textContent = words;
    $('run-state').className = bad ? 'bad' : '';
  }

  function finish() {
    for (const es of streams) es.close();
    streams = [];
    setButtons(false, false);
  }

  // The player on the runs so far: remounted when a run starts, so that
  // its panel shows its solver.
  function mountLive() {
    if (!page) return;
    page.runs = jobs.map((j) => j.run);
    history.replaceState(null, '', location.pathname);
    live = window.EnginePlayer.mount(page, true, jobs.length > 1 ? 360 : BOARD);
    $('watch').classList.add('played');
  }

  // Every search ended: the player gets the whole of each as recorded.
  function allDone() {
    if (!jobs.every((j) => j.done)) return;
    state.run = 'done';
    finish();
    const recorded = jobs.map((j) => j.recorded).filter(Boolean);
    if (recorded.length === jobs.length && recorded.length > 0) {
      const whole = recorded[0];
      whole.runs = recorded.map((r) => r.runs[0]);
      history.replaceState(null, '', location.pathname);
      live = null;
      window.EnginePlayer.mount(whole, false, jobs.length > 1 ? 360 : BOARD).toEnd();
    }
    const found = jobs.filter((j) => j.report && j.report.status === 'found').length;
    const words = jobs.map((j) => (j.report ? j.report.summary : j.failed || 'no report')).join(' · ');
    runState(words, found < jobs.length);
  }

  function showReports() {
    const parts = jobs.filter((j) => j.report).map((j) => (jobs.length > 1 ? '── ' + j.label + ' ──\n' : '') + j.report.text);
    $('report').textContent = parts.join('\n');
    const links = $('downloads');
    links.replaceChildren();
    for (const j of jobs) {
      if (!j.report) continue;
      const row = document.createElement('p');
      if (jobs.length > 1) row.append(document.createTextNode(j.label + ': '));
      for (const f of j.report.files || []) {
        const link = document.createElement('a');
        link.href = f;
        link.download = '';
        link.textContent = '\u2193 ' + f.split('/').pop();
        row.append(link);
      }
      if (j.report.status !== 'stopped') {
        const save = document.createElement('button');
        save.type = 'button';
        save.className = 'save';
        save.textContent = j.saved ? 'saved as run ' + j.saved : 'save to the archive';
        save.disabled = !!j.saved;
        save.addEventListener('click', () => saveRun(j, save));
        row.append(save);
      }
      links.append(row);
    }
  }

  async function saveRun(j, button) {
    button.disabled = true;
    const r = await call('POST', '/api/runs/' + j.id + '/save');
    if (!r.ok) {
      button.disabled = false;
      runState(r.value.error || 'the run was not saved', true);
      return;
    }
    j.saved = r.value.run;
    button.textContent = 'saved as run ' + j.saved;
    state.saved.push(j.saved);
    browseShelf();
  }

  async function start() {
    finish();
    state.run = 'starting';
    state.report = null;
    const seed = $('seed').value === '' ? null : Number($('seed').value);
    const solvers = [$('solver').value || null];
    if ($('solver2').value) solvers.push($('solver2').value);
    runState('starting…');
    $('report').textContent = '';
    $('downloads').replaceChildren();
    const made = [];
    for (const solver of solvers) {
      const r = await call('POST', '/api/runs', { name: fileName, text: text.value, solver, seed });
      if (!r.ok) {
        runState((r.value.error && r.value.error.text) || r.value.error || 'the search cannot start', true);
        return;
      }
      made.push({ id: r.value.id, solver });
    }
    page = null;
    jobs = made.map((m, i) => ({
      id: m.id, label: 'search ' + (i + 1), done: false, report: null, recorded: null, failed: null, saved: null,
      run: {
        solver: 'waiting for its turn', events: 0, samples: [], chart: [],
        end: { status: 'running', lines: ['searching…'], path: [], legend: [], ring: [] },
      },
    }));
    state.run = 'queued';
    state.samples = 0;
    state.report = null;
    state.runs = jobs;
    setButtons(true, false);
    jobs.forEach(listen);
  }

  function listen(job) {
    const es = new EventSource('/api/runs/' + job.id + '/events');
    streams.push(es);
    const run = job.run;
    es.addEventListener('queue', (e) => {
      const place = JSON.parse(e.data).place;
      runState(job.label + ' waits: place ' + place + ' in the queue (one search runs per core)');
    });
    es.addEventListener('start', (e) => {
      const data = JSON.parse(e.data);
      run.solver = data.solver;
      job.label = data.solver + (jobs.length > 1 ? ' (search ' + (jobs.indexOf(job) + 1) + ')' : '');
      page = page || data.page;
      mountLive();
      state.run = 'running';
      runState('searching with ' + jobs.map((j) => j.run.solver).join(' and '));
    });
    es.addEventListener('samples', (e) => {
      const d = JSON.parse(e.data);
      let lastGen = run.chart.length ? run.chart[run.chart.length - 1][0] + run.chart[run.chart.length - 1][1] - 1 : 0;
      for (const s of d.samples) {
        run.samples.push(s);
        if (s.gen !== undefined && s.mean !== undefined) {
          run.chart.push([lastGen + 1, Math.max(1, s.gen - lastGen), s.fit, s.mean]);
          lastGen = s.gen;
        }
      }
      run.events = d.events;
      state.samples = jobs.reduce((n, j) => n + j.run.samples.length, 0);
      state.events = d.events;
      if (live) live.grow();
    });
    es.addEventListener('paused', (e) => {
      const paused = JSON.parse(e.data).paused;
      setButtons(true, paused);
      runState(paused ? 'paused: step goes one event on, resume goes on; the player\u2019s controls go back over what was recorded' : 'searching');
    });
    es.addEventListener('report', (e) => {
      job.report = JSON.parse(e.data);
      state.report = job.report;
      run.end.status = { found: 'found', impossible: 'impossible', gave_up: 'gave_up', stopped: 'interrupted' }[job.report.status] || 'gave_up';
      run.end.lines = [job.report.summary];
      showReports();
    });
    es.addEventListener('player', (e) => {
      // The whole search as the recorder kept it, each step explained.
      job.recorded = JSON.parse(e.data);
    });
    es.addEventListener('failed', (e) => {
      job.failed = JSON.parse(e.data).error;
      runState(job.failed, true);
    });
    es.addEventListener('done', () => {
      es.close();
      job.done = true;
      allDone();
    });
    es.onerror = () => {
      if (streams.includes(es) && !job.done) {
        runState('the connection to the studio was lost', true);
        state.run = 'lost';
        job.done = true;
        finish();
      }
    };
  }

  on($('run'), 'click', start);
  for (const b of buttons) {
    on($(b), 'click', async () => {
      const running = jobs.filter((j) => !j.done);
      if (running.length === 0) return;
      const answers = await Promise.all(running.map((j) => call('POST', '/api/runs/' + j.id + '/' + b)));
      const bad = answers.find((r) => !r.ok);
      if (bad) runState(bad.value.error || 'the search did not answer', true);
      else if (b === 'step' || b === 'pause') setButtons(true, true);
      else if (b === 'resume') setButtons(true, false);
    });
  }

  // ---- A new puzzle from fields: its file written into the editor, where
  // the check flags whatever is wrong under its character.
  const ron = (t) => JSON.stringify(t);
  on($('new-form'), 'submit', (e) => {
    e.preventDefault();
    let t = 'Puzzle(\n    name: ' + ron($('new-name').value) + ',\n    board: ' + ron($('new-board').value)
      + ',\n    piece: ' + ron($('new-piece').value) + ',\n    tour: ' + $('new-tour').value + ',\n';
    if ($('new-start').value.trim()) t += '    start: ' + ron($('new-start').value.trim()) + ',\n';
    if ($('new-end').value.trim()) t += '    end: ' + ron($('new-end').value.trim()) + ',\n';
    t += ')\n';
    fileName = ($('new-name').value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'puzzle') + '.ron';
    $('open').value = '';
    setText(t);
    text.focus();
  });

  // ---- Making a puzzle: engine make's form, its report and pictures.
  let madeNow = null;
  const svgUrl = (svg) => 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  on($('make-form'), 'submit', async (e) => {
    e.preventDefault();
    const clues = $('make-clues').value;
    const ask = {
      board: $('make-board').value, piece: $('make-piece').value,
      closed: $('make-tour').value === 'closed',
      clues: clues === '' ? null : Number(clues),
      difficulty: $('make-difficulty').value || null,
      seed: Number($('make-seed').value || 0),
    };
    $('make-go').disabled = true;
    $('make-state').textContent = 'making… (up to a minute)';
    $('make-state').className = '';
    let r;
    try {
      r = await call('POST', '/api/make', ask);
    } finally {
      $('make-go').disabled = false;
    }
    state.made = r.value;
    if (!r.ok || r.value.failed) {
      const v = r.value;
      $('make-state').textContent = v.failed || (v.error && v.error.text) || v.error || 'no puzzle was made';
      $('make-state').className = 'bad';
      return;
    }
    madeNow = r.value;
    $('make-state').textContent = madeNow.name + ': ' + madeNow.clues + ' clues, ' + madeNow.difficulty;
    $('made').hidden = false;
    $('made-report').textContent = madeNow.report + '\n\n' + madeNow.picture;
    $('made-puzzle').src = svgUrl(madeNow.puzzle_svg);
    $('made-solution').src = svgUrl(madeNow.solution_svg);
    const links = $('made-links');
    for (const a of links.querySelectorAll('a')) a.remove();
    const stem = madeNow.file.replace(/\.ron$/, '');
    for (const [name, body, type] of [[madeNow.file, madeNow.text, 'text/plain'],
      [stem + '.svg', madeNow.puzzle_svg, 'image/svg+xml'], [stem + '-solution.svg', madeNow.solution_svg, 'image/svg+xml']]) {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([body], { type }));
      a.download = name;
      a.textContent = '\u2193 ' + name;
      links.append(a);
    }
  });
  on($('made-open'), 'click', () => {
    if (!madeNow) return;
    fileName = madeNow.file;
    $('open').value = '';
    setText(madeNow.text);
    $('write').scrollIntoView();
  });

  // ---- The archive: its figures and newest runs, each run shown as
  // `engine archive show` prints it, its tour replayed in the player.
  function cells(row, values, tag) {
    const tr = document.createElement('tr');
    for (const v of values) {
      const td = document.createElement(tag || 'td');
      if (v instanceof Node) td.append(v);
      else td.textContent = v;
      tr.append(td);
    }
    row.append(tr);
    return tr;
  }
  const number = (v) => Number(v).toLocaleString('en-US');
  async function browseShelf() {
    const r = await call('GET', '/api/archive');
    const note = $('shelf-note');
    if (!r.ok) {
      note.textContent = r.value.error || 'the archive cannot be read';
      note.className = 'note bad';
      $('shelf').classList.add('empty');
      return;
    }
    const v = r.value;
    state.shelf = v;
    note.className = 'note';
    note.textContent = v.runs.length === 0 ? 'No runs saved in ' + v.archive + ' yet: a search\u2019s \u201csave to the archive\u201d keeps it there.'
      : 'The archive ' + v.archive + (v.skipped.length ? ' (' + v.skipped.length + ' damaged rows left out)' : '');
    $('shelf').classList.toggle('empty', v.runs.length === 0);
    const stats = $('shelf-stats');
    stats.replaceChildren();
    cells(stats, ['puzzle', 'tour', 'solver', 'runs', 'success', 'distinct tours', 'mean time'], 'th');
    for (const s of v.stats) {
      const ms = s.times_ms.reduce((a, b) => a + b, 0) / Math.max(1, s.times_ms.length);
      cells(stats, [s.puzzle, s.tour, s.solver, number(s.runs), Math.round(s.success_rate * 100) + '%', number(s.distinct), ms.toFixed(1) + ' ms']);
    }
    const runs = $('shelf-runs');
    runs.replaceChildren();
    cells(runs, ['run', 'saved', 'puzzle', 'tour', 'status', 'solver', 'work', 'distinct tour', ''], 'th');
    for (const run of v.runs) {
      const show = document.createElement('button');
      show.type = 'button';
      show.textContent = 'replay';
      show.dataset.run = run.id;
      show.addEventListener('click', () => showRun(run.id));
      const work = run.generations > 0 ? number(run.generations) + ' generations' : number(run.nodes) + ' nodes';
      cells(runs, [String(run.id), run.created, run.name, run.tour, run.status, run.solver, work,
        run.tour_id === null ? '' : '#' + run.tour_id, show]);
    }
  }
  async function showRun(id) {
    const r = await call('GET', '/api/archive/runs/' + id);
    if (!r.ok) {
      $('shelf-show').textContent = r.value.error || 'the run cannot be read';
      return;
    }
    state.shown = r.value;
    $('shelf-show').textContent = r.value.text;
    finish();
    jobs = [];
    history.replaceState(null, '', location.pathname);
    live = null;
    window.EnginePlayer.mount(r.value.player, false, BOARD).toEnd();
    $('watch').classList.add('played');
    $('report').textContent = r.value.text;
    $('downloads').replaceChildren();
    runState('run ' + id + ' of the archive, its tour replayed');
    $('watch').scrollIntoView();
  }
  on($('shelf-refresh'), 'click', browseShelf);

  // ---- Opening: the list, then what the address asks.
  const asks = new URLSearchParams(location.hash.slice(1));
  browseShelf();
  list().then(async () => {
    if (asks.has('open')) await open(asks.get('open'));
    else if (asks.has('text')) {
      fileName = asks.get('name') || fileName;
      setText(asks.get('text'));
    } else setText(NEW);
    if (asks.has('run')) {
      $('solver').value = asks.get('run');
      if ($('solver').value !== asks.get('run')) $('solver').value = '';
      await check();
      start();
    }
  });
})();
