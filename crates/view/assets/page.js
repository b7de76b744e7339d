// The animator of the report and animator pages (guarantor-view), after LTSA's Animator: the
// product of the lanes is computed here, one step at a time, from the JSON block #model, so that
// it works for models whose full product is huge. Each lane is a set of states (the states it may
// be in, closed under its own tau steps); a component takes part in the actions of its alphabet,
// a property watches its alphabet and fails (ERROR) on an action it does not offer.
(function () {
  'use strict';
  const model = JSON.parse(document.getElementById('model').textContent);
  const lanes = model.lanes.map(function (l, i) {
    const alpha = new Set(l.alpha);
    return Object.assign({}, l, { id: i, alphaSet: alpha });
  });
  const system = lanes.filter(function (l) { return l.system; });
  const TAU = 0;

  // The lane's states after following action a from `set` (null when it cannot).
  function successors(lane, set, a) {
    const next = new Set();
    set.forEach(function (s) {
      const out = lane.out[s];
      for (let k = 0; k < out.length; k += 2) if (out[k] === a) next.add(out[k + 1]);
    });
    return next.size ? closure(lane, next) : null;
  }

  function closure(lane, set) {
    const stack = Array.from(set);
    const seen = new Set(stack);
    while (stack.length) {
      const out = lane.out[stack.pop()];
      for (let k = 0; k < out.length; k += 2) {
        if (out[k] === TAU && !seen.has(out[k + 1])) { seen.add(out[k + 1]); stack.push(out[k + 1]); }
      }
    }
    return seen;
  }

  // A configuration: per system lane, its set of states, or 'ERROR'.
  function initial() {
    return system.map(function (l) { return closure(l, new Set([l.init])); });
  }

  function failed(conf) {
    for (let i = 0; i < system.length; i++) {
      const l = system[i], set = conf[i];
      if (set === 'ERROR' || (l.err !== null && set.has(l.err))) return l;
    }
    return null;
  }

  // The configuration after action a, or null when some component that has a cannot take it.
  function step(conf, a) {
    let offered = false;
    const next = conf.map(function (set, i) {
      const l = system[i];
      if (!l.alphaSet.has(a)) return set;
      const succ = successors(l, set, a);
      if (succ) { offered = true; return succ; }
      return l.kind === 'property' ? 'ERROR' : null;
    });
    if (!offered || next.some(function (s) { return s === null; })) return null;
    return next;
  }

  // Every component at its END state (LTSA: successful termination, not a deadlock).
  function terminated(conf) {
    return conf.every(function (set, i) {
      const l = system[i];
      return l.kind !== 'component' || (l.end !== null && set !== 'ERROR' && set.has(l.end));
    });
  }

  function enabled(conf) {
    if (failed(conf)) return [];
    const candidates = new Set();
    conf.forEach(function (set, i) {
      const out = system[i].out;
      set.forEach(function (s) {
        for (let k = 0; k < out[s].length; k += 2) if (out[s][k] !== TAU) candidates.add(out[s][k]);
      });
    });
    return Array.from(candidates).filter(function (a) { return step(conf, a) !== null; })
      .sort(function (x, y) { return model.actions[x] < model.actions[y] ? -1 : 1; });
  }

  let history = [initial()];
  let trace = [];

  function current() { return history[history.length - 1]; }

  function render() {
    const conf = current();
    document.querySelectorAll('svg.lts .st.cur').forEach(function (e) { e.classList.remove('cur'); });
    conf.forEach(function (set, i) {
      if (set === 'ERROR') return;
      set.forEach(function (s) {
        const e = document.getElementById('l' + system[i].id + '-s' + s);
        if (e) e.classList.add('cur');
      });
    });
    const box = document.getElementById('enabled');
    box.textContent = '';
    const acts = enabled(conf);
    acts.forEach(function (a) {
      const b = document.createElement('button');
      b.textContent = model.actions[a];
      b.dataset.action = model.actions[a];
      b.addEventListener('click', function () { take(a); });
      box.appendChild(b);
    });
    const list = document.getElementById('trace');
    list.textContent = '';
    trace.forEach(function (a) {
      const li = document.createElement('li');
      li.textContent = model.actions[a];
      list.appendChild(li);
    });
    const status = document.getElementById('status');
    const bad = failed(conf);
    if (bad) {
      status.dataset.state = 'error';
      status.textContent = 'ERROR: ' + (bad.kind === 'property' ? 'property ' + bad.name + ' violated'
        : bad.name + ' reached its ERROR state');
    } else if (!acts.length && terminated(conf)) {
      status.dataset.state = 'end';
      status.textContent = 'terminated: every component is at its END state';
    } else if (!acts.length) {
      status.dataset.state = 'deadlock';
      status.textContent = 'deadlock: no action is possible';
    } else {
      status.dataset.state = 'running';
      status.textContent = acts.length + ' action' + (acts.length === 1 ? '' : 's') + ' enabled';
    }
    document.getElementById('undo').disabled = trace.length === 0;
  }

  function take(a) {
    const next = step(current(), a);
    if (!next) return false;
    history.push(next);
    trace.push(a);
    render();
    return true;
  }

  function reset() { history = [initial()]; trace = []; render(); }

  // Replays a list of action names from the initial state, as far as the system can follow it.
  function follow(names) {
    reset();
    const ids = new Map(model.actions.map(function (n, i) { return [n, i]; }));
    for (const n of names) if (!ids.has(n) || !take(ids.get(n))) break;
  }

  document.getElementById('undo').addEventListener('click', function () {
    if (trace.length) { history.pop(); trace.pop(); render(); }
  });
  document.getElementById('reset').addEventListener('click', reset);
  const animateRun = document.getElementById('animate-run');
  if (animateRun && model.run) {
    animateRun.addEventListener('click', function () {
      follow(model.run.actions);
      document.getElementById('animator').scrollIntoView();
    });
  }
  document.querySelectorAll('button.list-all').forEach(function (b) {
    b.addEventListener('click', function () {
      const lane = lanes[Number(b.dataset.lane)];
      const pre = document.createElement('pre');
      pre.className = 'states';
      pre.textContent = lane.out.map(function (out, s) {
        const edges = [];
        for (let k = 0; k < out.length; k += 2) edges.push(model.actions[out[k]] + ' -> ' + out[k + 1]);
        return s + (s === lane.init ? ' (initial)' : '') + ': ' + edges.join(', ');
      }).join('\n');
      b.replaceWith(pre);
    });
  });
  const match = /#trace=([^&]*)/.exec(window.location.hash);
  if (match) {
    follow(decodeURIComponent(match[1]).split(',').filter(function (s) { return s.length; }));
  } else {
    render();
  }
  document.body.dataset.ready = 'true';
})();
