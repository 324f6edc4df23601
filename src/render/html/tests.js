// The player's tests, run in a browser by tests/player.rs: added to a
// generated player after its own script (with its hash in the page's
// Content-Security-Policy), they drive the page as a user would — keys,
// clicks on the timeline, the scrubber — and write what the page then
// shows into <pre id="test-results"> as JSON. `errors.js` runs first and
// catches errors, refused content and alerts. PLAN is set by the harness:
// { forward, back, visit: [steps], final: bool, timing: bool }.
'use strict';

(function () {
  const out = window.testResults;
  const plan = window.PLAN;
  const P = window.enginePlayer;
  const $ = (id) => document.getElementById(id);
  const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  const counter = (name) => {
    const dd = document.querySelector('.panel dd[data-counter="' + name + '"]');
    return dd ? dd.textContent : null;
  };
  const number = (text) => (text === null ? null : Number(text.split(' ')[0].replace(/,/g, '')));
  const seen = () => ({
    position: $('position').textContent,
    step: P.step() + 1,
    depth: number(counter('depth')),
    nodes: number(counter('nodes')),
    backtracks: number(counter('backtracks')),
    what: document.querySelector('.panel .what').textContent,
  });

  try {
    out.opened = performance.now();
    out.total = P.total();

    // The player's own logic: every step's path, reached in any order, is
    // the replay of the samples from the first (checkpoints and cursor
    // agree), and every marker is a step of a known kind.
    const steps = P.total();
    const order = [];
    for (let k = 0; k < steps; k++) order.push((k * 7919) % steps);
    const replayed = [];
    for (let k = 0; k < steps; k++) replayed.push(P.pathAt(0, k).join(','));
    out.pathsAgree = order.every((k) => P.pathAt(0, k).join(',') === replayed[k]);
    const kinds = new Set(['backtrack', 'dead', 'pruning', 'repair', 'rotation', 'restart', 'generation', 'found', 'none', 'limit']);
    out.markersKnown = P.markers().every((m) => kinds.has(m.kind) && m.step >= 0 && m.step < steps);

    // Forward N, back M, with the keys.
    key('Home');
    for (let i = 0; i < plan.forward; i++) key('ArrowRight');
    for (let i = 0; i < plan.back; i++) key('ArrowLeft');
    out.afterKeys = seen();
    out.hash = location.hash;

    // Steps visited with the scrubber, as a user drags it.
    out.visits = [];
    for (const k of plan.visit || []) {
      const scrub = $('scrub');
      scrub.value = String(k);
      scrub.dispatchEvent(new Event('input', { bubbles: true }));
      out.visits.push(seen());
    }

    // A click on a marker lands on its step: one with no other marker
    // near it, of each kind.
    const canvas = $('markers');
    const rect = canvas.getBoundingClientRect();
    const markers = P.markers();
    const xOf = (k) => (steps <= 1 ? canvas.width / 2 : 8 + (k / (steps - 1)) * (canvas.width - 16));
    out.clicks = [];
    const done = new Set();
    for (const m of markers) {
      if (done.has(m.kind)) continue;
      const x = xOf(m.step);
      if (markers.some((o) => o !== m && Math.abs(xOf(o.step) - x) <= 2)) continue;
      done.add(m.kind);
      key('Home');
      const scale = rect.width / canvas.width;
      canvas.dispatchEvent(new MouseEvent('click', {
        clientX: rect.left + x * scale, clientY: rect.top + rect.height / 2, bubbles: true,
      }));
      out.clicks.push({ kind: m.kind, want: m.step + 1, got: P.step() + 1, what: seen().what });
    }

    if (plan.final) {
      // The last position as drawn: which squares' corners are tinted as
      // visited, read from the canvas's pixels.
      key('End');
      out.end = seen();
      const board = document.querySelector('.panel canvas.layer');
      const ctx = board.getContext('2d');
      const data = JSON.parse($('data').textContent);
      const margin = 24;
      const cell = Math.floor((board.width - margin) / data.width);
      const tint = new Set(['207,224,243', '169,196,228']);
      const cells = data.cells || Array.from({ length: data.width * data.height }, (_, s) => [s % data.width, Math.floor(s / data.width)]);
      out.visitedDrawn = cells.map(([x, y]) => {
        const px = ctx.getImageData(margin + x * cell + 2, (data.height - 1 - y) * cell + 2, 1, 1).data;
        return tint.has(px[0] + ',' + px[1] + ',' + px[2]);
      });
    }

    if (plan.timing) {
      // A step forward and back, redrawn: the slowest of many.
      key('End');
      const times = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        key(i % 2 ? 'ArrowRight' : 'ArrowLeft');
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      out.stepMs = { median: times[times.length >> 1], max: times[times.length - 1] };
    }
    out.title = $('title').textContent;
    out.subtitle = $('subtitle').textContent;
    out.images = document.querySelectorAll('img').length;
    out.scripts = document.querySelectorAll('script').length;
  } catch (e) {
    out.errors.push('test: ' + e);
  }
  const pre = document.createElement('pre');
  pre.id = 'test-results';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
})();
