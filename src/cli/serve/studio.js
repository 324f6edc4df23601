// The studio: the puzzle files to open, an editor whose text the server
// checks as it is typed (the error flagged under its character, with the
// command line's words), what `engine check` knows beside it, and searches
// run on the server and drawn by the HTML player's code as they stream
// in. Plain JavaScript, no build step; everything from a puzzle or a run
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
  const state = { checks: 0, checked: null, run: null, samples: 0, events: 0, report: null };
  window.engineStudio = state;

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

  // ---- Running: the search streams in and the player grows with it.
  let stream = null;
  let runId = null;
  let live = null;
  let run = null;
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
    if (stream) stream.close();
    stream = null;
    setButtons(false, false);
  }

  async function start() {
    finish();
    const solver = $('solver').value || null;
    const seed = $('seed').value === '' ? null : Number($('seed').value);
    runState('starting…');
    $('report').textContent = '';
    $('downloads').replaceChildren();
    const r = await call('POST', '/api/runs', { name: fileName, text: text.value, solver, seed });
    if (!r.ok) {
      runState((r.value.error && r.value.error.text) || r.value.error || 'the search cannot start', true);
      return;
    }
    runId = r.value.id;
    state.run = 'queued';
    state.samples = 0;
    state.report = null;
    setButtons(true, false);
    const es = new EventSource('/api/runs/' + runId + '/events');
    stream = es;
    es.addEventListener('queue', (e) => {
      const place = JSON.parse(e.data).place;
      runState('waiting: place ' + place + ' in the queue (one search runs per core)');
    });
    es.addEventListener('start', (e) => {
      const data = JSON.parse(e.data);
      run = {
        solver: data.solver, events: 0, samples: [], chart: [],
        end: { status: 'running', lines: ['searching…'], path: [], legend: [], ring: [] },
      };
      data.page.runs = [run];
      history.replaceState(null, '', location.pathname);
      live = window.EnginePlayer.mount(data.page, true, BOARD);
      $('watch').classList.add('played');
      state.run = 'running';
      runState('searching with ' + data.solver);
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
      state.samples = run.samples.length;
      state.events = d.events;
      if (live) live.grow();
    });
    es.addEventListener('paused', (e) => {
      const paused = JSON.parse(e.data).paused;
      setButtons(true, paused);
      runState(paused ? 'paused: step goes one event on, resume goes on' : 'searching');
    });
    es.addEventListener('report', (e) => {
      const d = JSON.parse(e.data);
      state.report = d;
      $('report').textContent = d.text;
      const links = $('downloads');
      links.replaceChildren();
      for (const f of d.files || []) {
        const link = document.createElement('a');
        link.href = f;
        link.download = '';
        link.textContent = '\u2193 ' + f.split('/').pop();
        links.append(link);
      }
      runState(d.summary, d.status !== 'found');
    });
    es.addEventListener('player', (e) => {
      // The whole search as the recorder kept it, each step explained.
      history.replaceState(null, '', location.pathname);
      live = null;
      window.EnginePlayer.mount(JSON.parse(e.data), false, BOARD).toEnd();
    });
    es.addEventListener('failed', (e) => {
      runState(JSON.parse(e.data).error, true);
    });
    es.addEventListener('done', () => {
      state.run = 'done';
      finish();
    });
    es.onerror = () => {
      if (stream === es) {
        runState('the connection to the studio was lost', true);
        state.run = 'lost';
        finish();
      }
    };
  }

  on($('run'), 'click', start);
  for (const b of buttons) {
    on($(b), 'click', async () => {
      if (runId === null) return;
      const r = await call('POST', '/api/runs/' + runId + '/' + b);
      if (!r.ok) runState(r.value.error || 'the search did not answer', true);
      else if (b === 'step' || b === 'pause') setButtons(true, true);
      else if (b === 'resume') setButtons(true, false);
    });
  }

  // ---- Opening: the list, then what the address asks.
  const asks = new URLSearchParams(location.hash.slice(1));
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
