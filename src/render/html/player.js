// The search player: replays recorded searches, one sample a step, forward
// and back. A page written by `run --html` plays its own data (the JSON
// block with id "data"); the studio mounts the player on each search it
// runs (`EnginePlayer.mount`) and grows it as the search streams in.
// Plain JavaScript, no build step, nothing loaded from elsewhere. Every
// string from the data is written with textContent, never as HTML.
'use strict';

(function () {
  // One player at a time: mounting another takes the last one down.
  let current = null;

  // Mounts the player on `data` (the board and its runs) in the page's
  // panels and controls. With `live`, the runs are still growing: the
  // caller appends samples to them and calls `grow()`; each run's end is
  // the path after its last sample until the caller replaces it. `most`
  // caps the board's size in pixels (640 by default).
  function mount(data, live, most) {
    if (current) current.destroy();
    const ac = new AbortController();
    const on = (target, type, f) => target.addEventListener(type, f, { signal: ac.signal });
    const W = data.width;
    const H = data.height;
    // Each square's cell; a board with every cell, numbered rank by rank,
    // comes without them.
    const cells = data.cells || Array.from({ length: W * H }, (_, s) => [s % W, Math.floor(s / W)]);
    const N = cells.length;
    const CHECKPOINT = 32;
    // Boards of up to this many squares are drawn whole at every step;
    // larger ones pixel by pixel, changing only the squares that changed.
    const DETAILED = 4096;
    const RAMP = [[33, 102, 172], [94, 60, 153], [214, 54, 97], [240, 140, 0]];
    const COLOURS = {
      light: '#eee9da', dark: '#c5d1b8', tintLight: '#cfe0f3', tintDark: '#a9c4e4',
      removed: '#3a3a44', cross: '#8a8a96', path: '#2f6db5', dot: '#173f73',
      head: '#f08c00', ink: '#1e2430', red: '#e03131', green: '#2f9e44',
      closing: '#d63384', flash: '#f7c6c6', churn: '#9c60ce', candidate: '#009688',
      label: '#6e7686', repaired: '#e67700', stripBg: '#323742', low: '#2f6db5',
      high: '#9c60ce', mean: '#6ea0e1',
    };
    const KINDS = [
      ['backtrack', 'backtrack', '#8a8a96'],
      ['dead', 'dead end', '#e03131'],
      ['pruning', 'pruning', '#f59f00'],
      ['repair', 'repair', '#e67700'],
      ['rotation', 'rotation', '#9c60ce'],
      ['restart', 'restart', '#1c7ed6'],
      ['generation', 'generation', '#6ea0e1'],
      ['found', 'tour found', '#2f9e44'],
      ['none', 'no tour', '#e03131'],
      ['limit', 'limit reached', '#f08c00'],
    ];
    const DEAD = new Set(['no_moves', 'wrong_end']);
    const PLAIN = new Set(['tried', 'unsaid']);

    // ---- Paths: each sample keeps the previous sample's first `p` squares
    // and adds `t`; checkpoints every CHECKPOINT samples make any step quick.
    function prepare(run) {
      run.checkpoints = [];
      run.lengths = [];
      run.tail = [];
      run.cursor = { at: -1, path: [] };
      extend(run);
    }

    // Takes in the samples added since the last call (all, the first time).
    function extend(run) {
      const path = run.tail;
      for (let j = run.lengths.length; j < run.samples.length; j++) {
        if (j % CHECKPOINT === 0) run.checkpoints.push(path.slice());
        applySample(path, run.samples[j]);
        run.lengths[j] = path.length;
      }
      if (live) run.end.path = path;
    }

    function applySample(path, s) {
      path.length = Math.min(s.p, path.length);
      for (let i = 0; i < s.t.length; i++) path.push(s.t[i]);
    }

    // The path after sample k (the outcome's path past the last sample).
    function pathAt(run, k) {
      const m = run.samples.length;
      if (k >= m) return run.end.path;
      const c = run.cursor;
      if (!(c.at >= 0 && c.at <= k && k - c.at <= CHECKPOINT)) {
        const base = Math.floor(k / CHECKPOINT);
        c.path = run.checkpoints[base].slice();
        c.at = base * CHECKPOINT - 1;
      }
      while (c.at < k) {
        c.at += 1;
        applySample(c.path, run.samples[c.at]);
      }
      return c.path;
    }

    // ---- Markers: what kind of moment each step is.
    function kindOf(run, k) {
      const m = run.samples.length;
      if (k === m) {
        return { found: 'found', impossible: 'none', gave_up: 'limit', interrupted: 'limit' }[run.end.status];
      }
      const s = run.samples[k];
      const prev = k > 0 ? run.samples[k - 1] : null;
      if (s.r > (prev ? prev.r : 0)) return 'restart';
      if (s.k === 'g') return 'generation';
      if (s.k === 'r' && s.why) {
        if (DEAD.has(s.why)) return 'dead';
        if (PLAIN.has(s.why)) return 'backtrack';
        if (s.why === 'tour') return 'found';
        return 'pruning';
      }
      if (s.k === 'w' && s.how) {
        if (s.how === 'rotation') return 'rotation';
        if (s.how === 'resume') return 'restart';
        return 'repair';
      }
      return null;
    }

    const runs = data.runs;
    runs.forEach(prepare);
    let total = 1;
    let markers = [];
    function mark() {
      total = Math.max(1, ...runs.map((r) => r.samples.length + 1));
      markers = [];
      for (let k = 0; k < total; k++) {
        for (const run of runs) {
          if (k > run.samples.length) continue;
          const kind = kindOf(run, k);
          if (kind) {
            markers.push({ step: k, kind });
            break;
          }
        }
      }
    }
    mark();

    // ---- The page.
    const $ = (id) => document.getElementById(id);
    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    $('subtitle').textContent = data.subtitle;
    $('panels').replaceChildren();
    $('legend').replaceChildren();
    const compare = runs.length > 1;
    // The board fits beside its words (one search) or its neighbours (several),
    // with the controls still in view.
    const tall = Math.max(240, (window.innerHeight || 900) - (compare ? 420 : 260));
    const wide = compare ? Math.floor(((window.innerWidth || 1200) - 80) / runs.length) : 640;
    const room = Math.min(tall, wide, most || 640);
    $('panels').classList.toggle('compare', compare);
    const side = Math.max(W, H);
    const cell = Math.max(1, Math.floor((room - 24) / side));
    const margin = 24;
    const detailed = N <= DETAILED;

    function makePanel(run, r) {
      const p = el('section', 'panel');
      p.setAttribute('aria-label', 'Search ' + (r + 1));
      p.append(el('h2', 'solver', run.solver));
      const wrap = el('div', 'board');
      const board = el('canvas', 'layer');
      const overlay = el('canvas', 'layer over');
      for (const c of [board, overlay]) {
        c.width = margin + W * cell;
        c.height = H * cell + margin;
      }
      wrap.append(board, overlay);
      const chart = el('canvas', 'chart');
      chart.width = W * cell + margin;
      chart.height = 64;
      // Nothing searched (a proof settled it): no chart.
      chart.hidden = run.samples.length === 0;
      const counters = el('dl', 'counters');
      const fields = {};
      for (const [key, label] of [['step', 'step'], ['event', 'event'], ['nodes', 'nodes'],
        ['backtracks', 'backtracks'], ['depth', 'depth'], ['best', 'best depth'],
        ['restarts', 'restarts'], ['generation', 'generation'], ['fitness', 'fitness']]) {
        const dt = el('dt', null, label);
        const dd = el('dd', null, '');
        dd.dataset.counter = key;
        counters.append(dt, dd);
        fields[key] = { dt, dd };
      }
      const what = el('p', 'what');
      what.setAttribute('aria-live', 'polite');
      const more = el('ul', 'more');
      const info = el('div', 'info');
      info.append(counters, what, more);
      const left = el('div', 'left');
      left.append(wrap, chart);
      p.append(left, info);
      $('panels').append(p);
      const panel = { run, board, overlay, chart, fields, what, more, shown: [], image: null };
      if (!detailed) initPixels(panel);
      return panel;
    }

    // ---- Drawing: coordinates.
    const cellX = (s) => margin + cells[s][0] * cell;
    const cellY = (s) => (H - 1 - cells[s][1]) * cell;
    const centre = (s) => [cellX(s) + cell / 2, cellY(s) + cell / 2];
    const panels = runs.map((run, r) => makePanel(run, r));

    function ramp(t) {
      const x = Math.min(Math.max(t, 0), 1) * (RAMP.length - 1);
      const a = Math.min(Math.floor(x), RAMP.length - 2);
      const f = x - a;
      return RAMP[a].map((v, i) => Math.round(v + (RAMP[a + 1][i] - v) * f));
    }

    function labels(ctx) {
      ctx.fillStyle = COLOURS.label;
      ctx.font = Math.min(12, Math.max(9, cell * 0.5)) + 'px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const every = Math.max(1, Math.ceil(14 / cell));
      const step = every <= 1 ? 1 : every <= 5 ? 5 : every <= 10 ? 10 : Math.ceil(every / 50) * 50;
      for (let x = 0; x < W; x++) {
        if (step > 1 && (x + 1) % step !== 0 && x !== 0) continue;
        ctx.fillText(data.files[x], margin + x * cell + cell / 2, H * cell + margin / 2);
      }
      ctx.textAlign = 'right';
      for (let y = 0; y < H; y++) {
        if (step > 1 && (y + 1) % step !== 0 && y !== 0) continue;
        ctx.fillText(data.ranks[y], margin - 4, (H - 1 - y) * cell + cell / 2);
      }
    }

    function squareColour(s, visited) {
      const [x, y] = cells[s];
      const darkSq = (x + y) % 2 === 0;
      if (visited) return darkSq ? COLOURS.tintDark : COLOURS.tintLight;
      return darkSq ? COLOURS.dark : COLOURS.light;
    }

    function drawBase(ctx, visited, fills) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      ctx.fillStyle = COLOURS.removed;
      ctx.fillRect(margin, 0, W * cell, H * cell);
      for (let s = 0; s < N; s++) {
        ctx.fillStyle = fills ? data.colours[fills[s]] || squareColour(s, false) : squareColour(s, visited[s]);
        ctx.fillRect(cellX(s), cellY(s), cell, cell);
      }
      if (cell >= 8 && N < W * H) {
        // Removed squares crossed.
        const on = new Uint8Array(W * H);
        for (const [x, y] of cells) on[y * W + x] = 1;
        ctx.strokeStyle = COLOURS.cross;
        ctx.lineWidth = 1;
        for (let y = 0; y < H; y++) {
          for (let x = 0; x < W; x++) {
            if (on[y * W + x]) continue;
            const px = margin + x * cell;
            const py = (H - 1 - y) * cell;
            ctx.beginPath();
            ctx.moveTo(px + cell * 0.25, py + cell * 0.25);
            ctx.lineTo(px + cell * 0.75, py + cell * 0.75);
            ctx.moveTo(px + cell * 0.75, py + cell * 0.25);
            ctx.lineTo(px + cell * 0.25, py + cell * 0.75);
            ctx.stroke();
          }
        }
      }
      labels(ctx);
    }

    function ring(ctx, s, colour, width, scale) {
      const [cx, cy] = centre(s);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(2, cell * (scale || 0.42)), 0, 2 * Math.PI);
      ctx.stroke();
    }

    function cross(ctx, s, colour) {
      const x = cellX(s);
      const y = cellY(s);
      ctx.strokeStyle = colour;
      ctx.lineWidth = Math.max(1.5, cell / 12);
      ctx.beginPath();
      ctx.moveTo(x + cell * 0.2, y + cell * 0.2);
      ctx.lineTo(x + cell * 0.8, y + cell * 0.8);
      ctx.moveTo(x + cell * 0.8, y + cell * 0.2);
      ctx.lineTo(x + cell * 0.2, y + cell * 0.8);
      ctx.stroke();
    }

    function segment(ctx, a, b, colour, width, dashed) {
      const [x0, y0] = centre(a);
      const [x1, y1] = centre(b);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.setLineDash(dashed ? [4, 3] : []);
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    // The whole board at step k, for boards small enough to draw whole.
    function drawDetailed(panel, k) {
      const run = panel.run;
      const m = run.samples.length;
      const s = k < m ? run.samples[k] : null;
      const path = pathAt(run, k).slice();
      const prev = k > 0 ? pathAt(run, k - 1).slice() : [];
      const ctx = panel.board.getContext('2d');
      const visited = new Uint8Array(N);
      for (const q of path) visited[q] = 1;
      const fills = k >= m ? run.end.fills : null;
      drawBase(ctx, visited, fills);
      // Abandoned: on the path a step before, not on it now.
      let c = 0;
      while (c < path.length && c < prev.length && path[c] === prev[c]) c++;
      for (let i = c; i < prev.length; i++) {
        if (!visited[prev[i]]) {
          ctx.fillStyle = COLOURS.flash;
          ctx.fillRect(cellX(prev[i]) + 1, cellY(prev[i]) + 1, cell - 2, cell - 2);
        }
      }
      const width = Math.max(1.5, Math.min(4, cell / 16));
      const genetic = s && s.k === 'g';
      const legal = genetic && s.legal !== undefined ? s.legal : path.length;
      const repaired = new Set(genetic ? s.rep || [] : []);
      const settled = s && s.settled !== undefined ? s.settled : path.length;
      for (let i = 1; i < path.length; i++) {
        let colour = COLOURS.path;
        if (genetic) colour = i >= legal ? COLOURS.red : repaired.has(i) ? COLOURS.repaired : COLOURS.green;
        else if (i > settled) colour = COLOURS.churn;
        segment(ctx, path[i - 1], path[i], colour, width, genetic && i >= legal);
      }
      if (k >= m && data.closed && run.end.status === 'found' && path.length > 2) {
        segment(ctx, path[path.length - 1], path[0], COLOURS.closing, width, true);
      }
      const numbers = cell >= 22;
      ctx.font = 'bold ' + Math.min(18, Math.floor(cell * 0.34)) + 'px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      path.forEach((q, i) => {
        const [cx, cy] = centre(q);
        if (numbers) {
          ctx.fillStyle = 'rgba(255,255,255,0.85)';
          ctx.beginPath();
          ctx.arc(cx, cy, Math.min(15, cell * 0.24), 0, 2 * Math.PI);
          ctx.fill();
          ctx.fillStyle = COLOURS.ink;
          ctx.fillText(String(i + 1), cx, cy + 1);
        } else {
          ctx.fillStyle = COLOURS.dot;
          ctx.beginPath();
          ctx.arc(cx, cy, Math.max(1, cell * 0.09), 0, 2 * Math.PI);
          ctx.fill();
        }
      });
      const octx = panel.overlay.getContext('2d');
      octx.clearRect(0, 0, panel.overlay.width, panel.overlay.height);
      marks(octx, run, k, path);
    }

    // What is drawn over the board at step k: the piece, Warnsdorff's
    // candidates, dead ends and the squares a reason names.
    function marks(ctx, run, k, path) {
      const m = run.samples.length;
      const s = k < m ? run.samples[k] : null;
      if (path.length > 0 && !(s && s.k === 'g') && !(k >= m && run.end.status === 'impossible')) {
        ring(ctx, path[path.length - 1], COLOURS.head, Math.max(2, cell / 10), 0.45);
      }
      if (s) {
        if (s.sq !== undefined && (!s.dead || s.dead.indexOf(s.sq) < 0)) {
          ring(ctx, s.sq, COLOURS.red, Math.max(1.5, cell / 16), 0.3);
        }
        for (const q of s.dead || []) cross(ctx, q, COLOURS.red);
        for (const q of s.ring || []) ring(ctx, q, COLOURS.red, Math.max(2, cell / 9), 0.46);
        ctx.font = 'bold ' + Math.max(9, Math.floor(cell * 0.34)) + 'px sans-serif';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        for (const [q, count, best] of s.cand || []) {
          ring(ctx, q, COLOURS.candidate, best ? Math.max(2.5, cell / 9) : Math.max(1, cell / 20), 0.4);
          if (cell >= 14) {
            const [cx, cy] = centre(q);
            ctx.fillStyle = COLOURS.candidate;
            ctx.fillText(String(count), cx, cy + 1);
          }
        }
      } else {
        for (const q of run.end.ring || []) ring(ctx, q, COLOURS.red, Math.max(2, cell / 9), 0.46);
      }
    }

    // ---- Large boards: a square a block of pixels, only changes repainted.
    function initPixels(panel) {
      const ctx = panel.board.getContext('2d');
      drawBase(ctx, new Uint8Array(N), null);
      panel.image = ctx.getImageData(margin, 0, W * cell, H * cell);
      panel.base = new Uint32Array(N);
      const view = new Uint32Array(panel.image.data.buffer);
      for (let s = 0; s < N; s++) {
        panel.base[s] = view[(cellY(s)) * W * cell + (cellX(s) - margin)];
      }
      panel.ramp = new Uint32Array(256);
      for (let i = 0; i < 256; i++) {
        const [r, g, b] = ramp(i / 255);
        panel.ramp[i] = (255 << 24) | (b << 16) | (g << 8) | r;
      }
    }

    function paint(panel, s, colour) {
      const view = new Uint32Array(panel.image.data.buffer);
      const x0 = cellX(s) - margin;
      const y0 = cellY(s);
      const stride = W * cell;
      for (let y = 0; y < cell; y++) {
        const row = (y0 + y) * stride + x0;
        for (let x = 0; x < cell; x++) view[row + x] = colour;
      }
    }

    function drawPixels(panel, k) {
      const run = panel.run;
      const path = pathAt(run, k);
      const shown = panel.shown;
      let c = 0;
      const most = Math.min(path.length, shown.length);
      while (c < most && path[c] === shown[c]) c++;
      for (let i = c; i < shown.length; i++) paint(panel, shown[i], panel.base[shown[i]]);
      const scale = 255 / Math.max(1, N - 1);
      for (let i = c; i < path.length; i++) paint(panel, path[i], panel.ramp[Math.round(i * scale)]);
      shown.length = c;
      for (let i = c; i < path.length; i++) shown.push(path[i]);
      const ctx = panel.board.getContext('2d');
      ctx.putImageData(panel.image, margin, 0);
      const octx = panel.overlay.getContext('2d');
      octx.clearRect(0, 0, panel.overlay.width, panel.overlay.height);
      marks(octx, run, k, path);
    }

    // ---- The chart under the board: the path's depth over the search (blue
    // settled, violet reached), or a genetic run's fitness (violet best,
    // blue mean); drawn up to the step shown.
    function drawChart(panel, k) {
      const run = panel.run;
      const ctx = panel.chart.getContext('2d');
      const cw = panel.chart.width - margin;
      const ch = panel.chart.height;
      ctx.fillStyle = COLOURS.stripBg;
      ctx.fillRect(0, 0, panel.chart.width, ch);
      const events = Math.max(1, run.events);
      const upto = Math.min(k, run.samples.length - 1);
      const xOf = (e) => margin + (e / events) * cw;
      ctx.fillStyle = COLOURS.label;
      ctx.font = '9px sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      if (run.chart.length > 0) {
        const floor = Math.min(...run.chart.map((p) => p[3]));
        const y = (v) => ch - 2 - ((v - floor) / Math.max(1, N - floor)) * (ch - 4);
        const gen = upto >= 0 && run.samples[upto].gen ? run.samples[upto].gen : k >= run.samples.length ? Infinity : 0;
        for (const [first, count, best, mean] of run.chart) {
          if (first > gen) break;
          const x0 = xOf(first - 1);
          const x1 = Math.max(x0 + 1, xOf(first - 1 + count));
          ctx.fillStyle = COLOURS.high;
          ctx.fillRect(x0, y(best), x1 - x0, 2);
          ctx.fillStyle = COLOURS.mean;
          ctx.fillRect(x0, y(mean), x1 - x0, 2);
        }
        ctx.fillStyle = COLOURS.label;
        ctx.fillText('fitness', 2, 2);
        return;
      }
      // The whole search faintly, what has been played in full colour.
      for (let j = 0; j < run.samples.length; j++) {
        ctx.globalAlpha = j <= upto ? 1 : 0.3;
        const s = run.samples[j];
        const x0 = xOf(s.f);
        const x1 = Math.max(x0 + 1, xOf(s.l + 1));
        const high = run.lengths[j] / Math.max(1, N);
        const low = Math.min(s.lo, run.lengths[j]) / Math.max(1, N);
        ctx.fillStyle = COLOURS.high;
        ctx.fillRect(x0, ch - high * (ch - 2), x1 - x0, (high - low) * (ch - 2));
        ctx.fillStyle = COLOURS.low;
        ctx.fillRect(x0, ch - low * (ch - 2), x1 - x0, low * (ch - 2));
      }
      ctx.globalAlpha = 1;
      if (upto >= 0) {
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(Math.min(xOf(run.samples[upto].l + 1), margin + cw - 1), 0, 1, ch);
      }
      ctx.fillStyle = COLOURS.label;
      ctx.fillText('depth', 2, 2);
    }

    // ---- Counters and words.
    const fmt = (v) => Number(v).toLocaleString('en-US');

    function setField(panel, key, value) {
      const f = panel.fields[key];
      const on = value !== null && value !== undefined;
      f.dt.hidden = !on;
      f.dd.hidden = !on;
      f.dd.textContent = on ? value : '';
    }

    function tell(panel, k) {
      const run = panel.run;
      const m = run.samples.length;
      const at = Math.min(k, m);
      const s = at < m ? run.samples[at] : null;
      const last = m > 0 ? run.samples[m - 1] : null;
      const path = pathAt(run, at);
      setField(panel, 'step', fmt(at + 1) + ' of ' + fmt(m + 1));
      setField(panel, 'event', s ? (s.f === s.l ? fmt(s.i + 1) : fmt(s.f + 1) + '\u2013' + fmt(s.l + 1)) + ' of ' + fmt(run.events) : null);
      const now = s || last;
      const genetic = run.chart.length > 0;
      setField(panel, 'nodes', now && !genetic ? fmt(now.n) : null);
      setField(panel, 'backtracks', now && !genetic ? fmt(now.b) : null);
      setField(panel, 'depth', genetic ? null : fmt(path.length));
      setField(panel, 'best', now && !genetic ? fmt(Math.max(now.best, s ? 0 : path.length)) + ' of ' + fmt(N) : null);
      setField(panel, 'restarts', now && now.r > 0 ? fmt(now.r) : null);
      setField(panel, 'generation', s && s.gen ? fmt(s.gen) : null);
      setField(panel, 'fitness', s && s.fit !== undefined ? fmt(s.fit) + ' of ' + fmt(N) : null);
      panel.what.textContent = s ? s.text : run.end.lines[0] || '';
      panel.what.className = 'what' + (s ? '' : ' outcome ' + run.end.status);
      panel.more.replaceChildren();
      const lines = s ? s.more || [] : run.end.lines.slice(1);
      for (const line of lines) panel.more.append(el('li', null, line));
      if (!s) {
        for (const [line, colour] of run.end.legend) {
          const li = el('li', 'legend-line');
          const sw = el('span', 'swatch');
          sw.style.background = data.colours[colour] || '#888';
          li.append(sw, document.createTextNode(line));
          panel.more.append(li);
        }
      }
    }

    // ---- The position, the timeline and the controls.
    let step = 0;
    let playing = false;
    const scrub = $('scrub');
    scrub.max = String(total);
    const speed = $('speed');

    function draw() {
      for (const panel of panels) {
        const k = Math.min(step, panel.run.samples.length);
        if (detailed) drawDetailed(panel, k);
        else drawPixels(panel, k);
        drawChart(panel, k);
        tell(panel, k);
      }
      scrub.value = String(step + 1);
      $('position').textContent = 'step ' + fmt(step + 1) + ' of ' + fmt(total);
      drawMarkers();
    }

    function go(k, keepHash) {
      step = Math.max(0, Math.min(total - 1, k));
      draw();
      if (!keepHash) {
        const hash = '#step=' + (step + 1);
        if (location.hash !== hash) history.replaceState(null, '', hash);
      }
    }

    function setPlaying(on) {
      playing = on && step < total - 1;
      const b = $('play');
      b.textContent = playing ? '\u275A\u275A pause' : '\u25B6 play';
      b.setAttribute('aria-label', playing ? 'Pause' : 'Play');
      if (playing) {
        last = performance.now();
        owed = 0;
        requestAnimationFrame(tick);
      }
    }

    // Steps of the step window last a quarter of a second, the time-lapse's
    // 80 ms, as in the search GIF; the speed divides them.
    let last = 0;
    let owed = 0;
    function delayOf(k) {
      const s = panels[0].run.samples[k];
      return s && s.f === s.l ? 250 : 80;
    }
    function tick(now) {
      if (!playing) return;
      owed += (now - last) * Number(speed.value);
      last = now;
      let moved = false;
      while (owed >= delayOf(step) && step < total - 1) {
        owed -= delayOf(step);
        step += 1;
        moved = true;
      }
      if (moved) go(step);
      if (step >= total - 1) setPlaying(false);
      else requestAnimationFrame(tick);
    }

    const markerCanvas = $('markers');
    const colourOf = Object.fromEntries(KINDS.map(([k, , c]) => [k, c]));
    function xOfStep(k) {
      const w = markerCanvas.width;
      return total <= 1 ? w / 2 : 8 + (k / (total - 1)) * (w - 16);
    }
    function drawMarkers() {
      const c = markerCanvas;
      const w = c.clientWidth || 600;
      if (c.width !== w) c.width = w;
      const ctx = c.getContext('2d');
      ctx.clearRect(0, 0, c.width, c.height);
      for (const mk of markers) {
        ctx.fillStyle = colourOf[mk.kind];
        ctx.fillRect(Math.round(xOfStep(mk.step)) - 1, 4, 3, c.height - 8);
      }
      ctx.fillStyle = '#222';
      ctx.fillRect(Math.round(xOfStep(step)) - 1, 0, 2, c.height);
    }
    on(markerCanvas, 'click', (e) => {
      const rect = markerCanvas.getBoundingClientRect();
      const x = (e.clientX - rect.left) * (markerCanvas.width / rect.width);
      let best = null;
      for (const mk of markers) {
        const d = Math.abs(xOfStep(mk.step) - x);
        if (d <= 6 && (!best || d < best.d)) best = { d, step: mk.step };
      }
      if (best) go(best.step);
    });

    function nextMarker(dir) {
      const list = dir > 0 ? markers : markers.slice().reverse();
      const mk = list.find((x) => (dir > 0 ? x.step > step : x.step < step));
      if (mk) go(mk.step);
    }

    function legend() {
      const counts = {};
      for (const mk of markers) counts[mk.kind] = (counts[mk.kind] || 0) + 1;
      $('legend').replaceChildren();
      for (const [key, name, colour] of KINDS) {
        if (!counts[key]) continue;
        const item = el('span', 'key');
        const sw = el('span', 'swatch');
        sw.style.background = colour;
        item.append(sw, document.createTextNode(name + ' (' + fmt(counts[key]) + ')'));
        $('legend').append(item);
      }
    }
    legend();

    on($('start'), 'click', () => go(0));
    on($('end'), 'click', () => go(total - 1));
    on($('back'), 'click', () => go(step - 1));
    on($('forward'), 'click', () => go(step + 1));
    on($('play'), 'click', () => setPlaying(!playing));
    on(scrub, 'input', () => go(Number(scrub.value) - 1));
    on(document, 'keydown', (e) => {
      const typing = e.target instanceof HTMLElement && (e.target.isContentEditable
        || ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) && e.target !== scrub;
      if (typing || e.target === speed || e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = {
        ' ': () => setPlaying(!playing),
        ArrowLeft: () => go(step - 1),
        ArrowRight: () => go(step + 1),
        Home: () => go(0),
        End: () => go(total - 1),
        n: () => nextMarker(1),
        p: () => nextMarker(-1),
      };
      const f = keys[e.key];
      if (f) {
        e.preventDefault();
        f();
      }
    });

    function fromHash() {
      const m = /step=(\d+)/.exec(location.hash);
      return m ? Number(m[1]) - 1 : 0;
    }
    if (!live) on(window, 'hashchange', () => go(fromHash(), true));
    on(window, 'resize', drawMarkers);

    // For the page's own tests: read-only views of what it computed.
    window.enginePlayer = Object.freeze({
      total: () => total,
      step: () => step,
      markers: () => markers.slice(),
      pathAt: (r, k) => pathAt(runs[r], k).slice(),
      kindOf: (r, k) => kindOf(runs[r], k),
    });

    go(live ? 0 : fromHash(), true);

    current = {
      // Shows the last step: the search's end.
      toEnd() {
        go(total - 1, true);
      },
      destroy() {
        playing = false;
        ac.abort();
      },
      // Takes in the samples the caller appended to the runs: the timeline
      // grows, and the view follows the newest step unless it was moved
      // back to look at an earlier one.
      grow() {
        const follow = step >= total - 1;
        runs.forEach(extend);
        mark();
        scrub.max = String(total);
        for (const panel of panels) panel.chart.hidden = panel.run.samples.length === 0;
        legend();
        if (follow) go(total - 1, true);
        else draw();
      },
    };
    return current;
  }

  window.EnginePlayer = Object.freeze({ mount });
  const block = document.getElementById('data');
  if (block) mount(JSON.parse(block.textContent), false);
})();
