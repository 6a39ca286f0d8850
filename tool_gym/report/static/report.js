// The tool_gym evaluation report: plain DOM, no library, nothing fetched.
// Every text that comes from a run goes into the page through textContent (el() below),
// never as HTML. The model (#report-data) is parsed once; the transcripts
// (#report-transcripts: gzip chunks in base64) when an episode is first opened.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("report-data").textContent);
  const RUNS = DATA.runs, EPS = DATA.episodes, TASKS = DATA.tasks;
  const MULTI = RUNS.length > 1;
  const COLORS = ["#2f6fb3", "#d9822b", "#7a4fb5", "#2a9d8f", "#b83280", "#4d7c0f"];
  const GRID_PAGE = 100, LIST_PAGE = 50, DIFF_PAGE = 100;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ helpers
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    return add(node, ...children);
  }
  // Append children (nested arrays flattened; null, undefined and false left out) as nodes
  // or as text, never as HTML.
  function add(node, ...children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const fill = (node, ...children) => { node.replaceChildren(); return add(node, ...children); };
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) {
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    }
    return node;
  }
  const fixed = (value, digits) => (value === null || value === undefined || value === "")
    ? "\u2014" : Number(value).toFixed(digits);
  // A number of summary.json, shown rounded; data-key and data-value hold it exactly.
  function num(run, key, value, digits) {
    return el("td", {class: "num", "data-run": run, "data-key": key,
                     "data-value": JSON.stringify(value === undefined ? null : value)},
              Number.isInteger(value) && digits === 0 ? String(value) : fixed(value, digits));
  }
  const label = (r) => RUNS[r].label + " \u00b7 " + RUNS[r].name;
  const swatch = (r) => el("span", {class: "swatch", style: "background:" + COLORS[r % COLORS.length]});
  const episodeHref = (id) => "#episode=" + id;
  const taskHref = (task) => "#task=" + encodeURIComponent(TASKS[task]);
  function pager(count, size, page, onPage, what) {
    const pages = Math.max(1, Math.ceil(count / size));
    const first = count ? page * size + 1 : 0, last = Math.min(count, (page + 1) * size);
    return el("div", {class: "pager"},
      el("button", {type: "button", disabled: page === 0, "data-pager": "prev",
                    onclick: () => onPage(page - 1)}, "\u2190 previous"),
      el("span", {}, `${what} ${first}\u2013${last} of ${count}`),
      el("button", {type: "button", disabled: page >= pages - 1, "data-pager": "next",
                    onclick: () => onPage(page + 1)}, "next \u2192"));
  }

  // Episodes by run and task, in trial order.
  const byRunTask = RUNS.map(() => new Map());
  const maxTrial = RUNS.map(() => 0);
  EPS.forEach((e, id) => {
    const map = byRunTask[e.run];
    if (!map.has(e.task)) map.set(e.task, []);
    map.get(e.task).push(id);
    maxTrial[e.run] = Math.max(maxTrial[e.run], e.trial);
  });
  for (const map of byRunTask) for (const ids of map.values()) ids.sort((a, b) => EPS[a].trial - EPS[b].trial);

  // ------------------------------------------------------------------ transcripts
  let chunkTexts = null;
  const chunkCache = new Map();
  function chunk(index) {
    if (!chunkCache.has(index)) {
      chunkCache.set(index, (async () => {
        if (typeof DecompressionStream === "undefined") {
          throw new Error("this browser cannot inflate the transcripts (no DecompressionStream): " +
                          "open the report in a recent Chrome, Edge, Firefox or Safari");
        }
        if (chunkTexts === null) chunkTexts = JSON.parse($("report-transcripts").textContent);
        const binary = atob(chunkTexts[index]);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return JSON.parse(await new Response(stream).text());
      })());
    }
    return chunkCache.get(index);
  }
  async function transcript(id) {
    const at = EPS[id].transcript;
    if (at === undefined || at === null) return null;
    return (await chunk(Math.floor(at / DATA.chunk)))[at % DATA.chunk];
  }

  // ------------------------------------------------------------------ runs and summary
  function renderRuns() {
    const rows = RUNS.map((run, r) => {
      const c = run.config;
      return el("tr", {},
        el("td", {}, swatch(r), run.label), el("td", {}, run.name),
        el("td", {class: "mono"}, run.dir), el("td", {}, c.env), el("td", {}, c.policy),
        el("td", {}, c.split), el("td", {class: "num"}, run.summary.tasks),
        el("td", {class: "num"}, c.trials), el("td", {class: "num"}, run.summary.episodes),
        el("td", {}, run.has_transcripts ? "yes" : "no"));
    });
    $("runs").append(el("h2", {}, MULTI ? "Runs" : "Run"), el("table", {},
      el("thead", {}, el("tr", {}, ["run", "name", "directory", "env", "policy", "split",
        "tasks", "trials", "episodes", "transcripts"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
  }

  function summaryCard(r) {
    const run = RUNS[r], s = run.summary;
    const rows = (pairs) => el("table", {}, el("tbody", {}, pairs.map(([name, cell]) =>
      el("tr", {}, el("th", {}, name), cell))));
    const overall = rows([
      ["episodes", num(r, "episodes", s.episodes, 0)],
      ["tasks", num(r, "tasks", s.tasks, 0)],
      ["success rate", num(r, "success_rate", s.success_rate, 3)],
      ["mean score", num(r, "mean_score", s.mean_score, 3)],
      ["mean reward", num(r, "mean_reward", s.mean_reward, 3)],
      ["mean turns", num(r, "mean_turns", s.mean_turns, 2)],
      ["mean tool calls", num(r, "mean_tool_calls", s.mean_tool_calls, 2)],
      ["violations", num(r, "violations.total", s.violations.total, 0)],
      ["violations per episode", num(r, "violations.per_episode", s.violations.per_episode, 3)],
      ["episodes with violations", num(r, "violations.episodes_with_violations",
                                       s.violations.episodes_with_violations, 0)],
      ["redundant writes", num(r, "redundant_writes.total", s.redundant_writes.total, 0)],
      ["redundant writes per episode", num(r, "redundant_writes.per_episode",
                                           s.redundant_writes.per_episode, 3)],
    ]);
    const ks = Object.keys(s.pass_hat_k);
    const passK = el("table", {"data-table": "pass_hat_k"},
      el("thead", {}, el("tr", {}, ["k", "pass^k", `${Math.round(100 * s.ci.confidence)}% CI low`,
        "CI high", "pass@k", "tasks"].map((h) => el("th", {class: h === "k" ? "" : "num"}, h)))),
      el("tbody", {}, ks.map((k) => el("tr", {}, el("td", {}, k),
        num(r, "pass_hat_k." + k, s.pass_hat_k[k], 3),
        num(r, "pass_hat_k_ci." + k + ".0", s.pass_hat_k_ci[k][0], 3),
        num(r, "pass_hat_k_ci." + k + ".1", s.pass_hat_k_ci[k][1], 3),
        num(r, "pass_at_k." + k, s.pass_at_k[k], 3),
        num(r, "pass_hat_k_tasks." + k, s.pass_hat_k_tasks[k], 0)))));
    const types = Object.keys(s.constraint_types || {});
    const perType = types.length ? el("table", {"data-table": "constraint_types"},
      el("thead", {}, el("tr", {}, ["constraint type", "posed", "satisfied", "episodes",
        "episode success"].map((h, i) => el("th", {class: i ? "num" : ""}, h)))),
      el("tbody", {}, types.map((t) => {
        const row = s.constraint_types[t], key = "constraint_types." + t + ".";
        return el("tr", {}, el("td", {}, t), num(r, key + "constraints", row.constraints, 0),
          num(r, key + "satisfied_rate", row.satisfied_rate, 3),
          num(r, key + "episodes", row.episodes, 0),
          num(r, key + "episode_success_rate", row.episode_success_rate, 3));
      }))) : el("p", {class: "muted"}, "no constraints posed");
    const kinds = Object.keys(s.violations.by_kind || {});
    const rules = kinds.length ? el("table", {"data-table": "violations.by_kind"}, el("tbody", {},
      kinds.map((k) => el("tr", {}, el("td", {}, k),
        num(r, "violations.by_kind." + k, s.violations.by_kind[k], 0),
        el("td", {class: "muted"}, DATA.rules[k] || ""))))) : el("p", {class: "muted"}, "no rule broken");
    const ended = el("table", {"data-table": "ended"}, el("tbody", {},
      Object.keys(s.ended || {}).map((k) => el("tr", {}, el("td", {}, k || "(none)"),
        num(r, "ended." + k, s.ended[k], 0)))));
    const card = el("div", {class: "card", "data-run": r},
      el("h3", {}, swatch(r), label(r), el("span", {class: "muted"},
        ` \u2014 ${run.config.policy} on ${run.config.env} (${run.config.split})`)),
      overall, el("h3", {}, "pass^k and pass@k"), passK,
      el("h3", {}, "Success per constraint type"), perType,
      el("h3", {}, "Policy rules broken"), rules, el("h3", {}, "Ended by"), ended);
    if (s.tau2) {
      card.append(el("h3", {}, "tau2's deterministic reward"), rows([
        ["reward mean", num(r, "tau2.reward_mean", s.tau2.reward_mean, 3)],
        ["db_match rate", num(r, "tau2.db_match_rate", s.tau2.db_match_rate, 3)],
        ["communicate_info rate", num(r, "tau2.communicate_info_rate", s.tau2.communicate_info_rate, 3)],
      ]));
    }
    if (run.uncounted) {
      card.append(el("p", {class: "muted"}, `${run.uncounted} episodes of episodes.jsonl lie ` +
        "outside this run's tasks or trials: they are listed below but not counted in summary.json."));
    }
    if (!run.has_transcripts) card.append(transcriptsNote(r));
    return card;
  }

  function transcriptsNote(r) {
    return el("div", {class: "note", "data-note": "no-transcripts"},
      el("strong", {}, "No transcripts. "),
      "This run was evaluated without --save-trajectories, so the report has its outcomes " +
      "but not what the agent said and called. To get the transcripts, run:",
      el("pre", {}, RUNS[r].transcripts_command));
  }

  function chart() {
    const W = 560, H = 280, L = 44, R = 150, T = 14, B = 34;
    const maxK = Math.max(...RUNS.map((run) => Object.keys(run.summary.pass_hat_k).length), 1);
    const x = (k) => L + (maxK === 1 ? (W - L - R) / 2 : (k - 1) * (W - L - R) / (maxK - 1));
    const y = (v) => T + (1 - v) * (H - T - B);
    const root = svg("svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
                             "aria-label": "pass^k against k with confidence bands"});
    for (let i = 0; i <= 4; i++) {
      const v = i / 4;
      root.append(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e6e8eb"}),
                  svg("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end"}, v.toFixed(2)));
    }
    for (let k = 1; k <= maxK; k++) root.append(svg("text", {x: x(k), y: H - B + 16, "text-anchor": "middle"}, k));
    root.append(svg("text", {x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle"}, "k"));
    RUNS.forEach((run, r) => {
      const s = run.summary, color = COLORS[r % COLORS.length];
      const ks = Object.keys(s.pass_hat_k).map(Number);
      const band = ks.map((k) => `${x(k)},${y(s.pass_hat_k_ci[k][1])}`)
        .concat(ks.slice().reverse().map((k) => `${x(k)},${y(s.pass_hat_k_ci[k][0])}`));
      root.append(svg("polygon", {points: band.join(" "), fill: color, "fill-opacity": 0.15, stroke: "none"}));
      root.append(svg("polyline", {points: ks.map((k) => `${x(k)},${y(s.pass_hat_k[k])}`).join(" "),
                                   fill: "none", stroke: color, "stroke-width": 2}));
      root.append(svg("polyline", {points: ks.map((k) => `${x(k)},${y(s.pass_at_k[k])}`).join(" "),
                                   fill: "none", stroke: color, "stroke-width": 1.5, "stroke-dasharray": "4 3"}));
      for (const k of ks) {
        root.append(svg("circle", {cx: x(k), cy: y(s.pass_hat_k[k]), r: 3.5, fill: color},
          svg("title", {}, `${run.label} pass^${k} = ${fixed(s.pass_hat_k[k], 3)} ` +
            `[${fixed(s.pass_hat_k_ci[k][0], 3)}, ${fixed(s.pass_hat_k_ci[k][1], 3)}]`)));
      }
      const ly = T + 8 + r * 36;
      root.append(svg("line", {x1: W - R + 12, x2: W - R + 32, y1: ly, y2: ly, stroke: color, "stroke-width": 2}),
        svg("text", {x: W - R + 38, y: ly + 4}, `${run.label} pass^k`),
        svg("line", {x1: W - R + 12, x2: W - R + 32, y1: ly + 15, y2: ly + 15, stroke: color,
                     "stroke-dasharray": "4 3"}),
        svg("text", {x: W - R + 38, y: ly + 19}, `${run.label} pass@k`));
    });
    const band = Math.round(100 * RUNS[0].summary.ci.confidence);
    return el("div", {}, root, el("p", {class: "muted"}, `Shaded: ${band}% confidence band of pass^k ` +
      `(${RUNS[0].summary.ci.method}). Dashed: pass@k.`));
  }

  function renderSummary() {
    $("summary").append(el("h2", {}, "Summary"), chart(),
      el("div", {class: "cards"}, RUNS.map((_, r) => summaryCard(r))));
  }

  // ------------------------------------------------------------------ comparison
  const outcome = (r, task) => {
    const ids = byRunTask[r].get(task) || [];
    return {ids, won: ids.filter((id) => EPS[id].success).length};
  };
  let diffRows = [], diffPage = 0;
  function renderCompare() {
    if (!MULTI) return;
    const shared = [], partial = [];
    for (let t = 0; t < TASKS.length; t++) {
      (RUNS.every((_, r) => byRunTask[r].has(t)) ? shared : partial).push(t);
    }
    diffRows = shared.filter((t) => {
      const rates = RUNS.map((_, r) => { const o = outcome(r, t); return o.won / o.ids.length; });
      return rates.some((v) => v !== rates[0]);
    });
    const section = $("compare");
    section.hidden = false;
    section.replaceChildren(el("h2", {}, "Tasks whose outcome differs"),
      el("p", {}, `${diffRows.length} of the ${shared.length} tasks that every run played ` +
        "differ in their successes" + (partial.length ? ` (${partial.length} tasks are in some runs only)` : "") +
        ". Open a task to see the runs side by side."), diffTable());
  }
  function diffTable() {
    const rows = diffRows.slice(diffPage * DIFF_PAGE, (diffPage + 1) * DIFF_PAGE);
    const wrap = el("div", {id: "diff"},
      pager(diffRows.length, DIFF_PAGE, diffPage, (p) => { diffPage = p; $("diff").replaceWith(diffTable()); }, "tasks"),
      el("table", {"data-table": "differs"},
        el("thead", {}, el("tr", {}, el("th", {}, "task"),
          RUNS.map((_, r) => el("th", {class: "num"}, swatch(r), RUNS[r].label + " successes")),
          el("th", {}, ""))),
        el("tbody", {}, rows.map((t) => el("tr", {"data-task": TASKS[t]}, el("td", {}, TASKS[t]),
          RUNS.map((_, r) => { const o = outcome(r, t);
            return el("td", {class: "num " + (o.won === o.ids.length ? "pass" : o.won === 0 ? "fail" : "")},
                      `${o.won}/${o.ids.length}`); }),
          el("td", {}, el("a", {href: taskHref(t)}, "side by side")))))));
    return wrap;
  }

  // ------------------------------------------------------------------ filters
  const state = {run: -1, failed: false, constraint: "", ended: -1, query: "", deep: false};
  let shown = EPS.map((_, id) => id);
  let gridPage = 0, listPage = 0;
  let hay = null;
  const deepHay = new Map();
  function haystack(id) {
    if (hay === null) {
      hay = EPS.map((e) => [TASKS[e.task], DATA.endings[e.ended],
        e.constraints.map((c) => DATA.types[c[0]] + (c[1] ? "" : " failed") + (reason(c) ? " " + reason(c) : "")).join(" "),
        Object.keys(e.violation_counts).map((k) => DATA.kinds[k]).join(" "),
        (e.called || []).map((t) => DATA.tools[t]).join(" "),
        e.success ? "passed" : "failed", "trial " + e.trial].join(" ").toLowerCase());
    }
    return hay[id];
  }
  function transcriptText(t) {
    const parts = [];
    for (const turn of t.turns) {
      parts.push(turn.text);
      for (const call of turn.calls || []) parts.push(call.name, JSON.stringify(call.arguments), call.result);
    }
    return parts.join("\n").toLowerCase();
  }
  function matches(id) {
    const e = EPS[id];
    if (state.run >= 0 && e.run !== state.run) return false;
    if (state.failed && e.success) return false;
    if (state.ended >= 0 && e.ended !== state.ended) return false;
    if (state.constraint) {
      const [mode, type] = [state.constraint[0], Number(state.constraint.slice(2))];
      if (!e.constraints.some((c) => c[0] === type && (mode === "t" || !c[1]))) return false;
    }
    if (state.query) {
      if (haystack(id).includes(state.query)) return true;
      return state.deep && (deepHay.get(id) || "").includes(state.query);
    }
    return true;
  }
  let searchGeneration = 0;
  async function applyFilters() {
    const generation = ++searchGeneration;
    if (state.deep && state.query) {
      const missing = EPS.map((e, id) => id).filter((id) => EPS[id].transcript !== undefined && !deepHay.has(id));
      if (missing.length) {
        $("count").textContent = "searching the transcripts\u2026";
        const chunks = new Set(missing.map((id) => Math.floor(EPS[id].transcript / DATA.chunk)));
        try {
          await Promise.all([...chunks].map(chunk));
        } catch (error) {
          $("count").textContent = String(error.message || error);
          return;
        }
        for (const id of missing) deepHay.set(id, transcriptText(await transcript(id)));
        if (generation !== searchGeneration) return;
      }
    }
    shown = EPS.map((_, id) => id).filter(matches);
    gridPage = 0; listPage = 0;
    const failed = shown.filter((id) => !EPS[id].success).length;
    $("count").textContent = `${shown.length} of ${EPS.length} episodes shown (${failed} failed)`;
    renderGrid(); renderList();
  }
  function renderFilters() {
    const options = (pairs) => pairs.map(([value, text]) => el("option", {value}, text));
    const select = (id, name, pairs, onchange) => el("label", {}, name + " ",
      el("select", {id, onchange: (event) => { onchange(event.target.value); applyFilters(); }}, options(pairs)));
    let timer = null;
    add($("filters"),
      MULTI ? select("filter-run", "run", [["-1", "all runs"]].concat(RUNS.map((run, r) => [String(r), label(r)])),
                     (v) => { state.run = Number(v); }) : null,
      el("label", {}, el("input", {type: "checkbox", id: "filter-failed", onchange: (event) => {
        state.failed = event.target.checked; applyFilters(); }}), " failed only"),
      select("filter-constraint", "constraint", [["", "any constraint type"]].concat(
        DATA.types.flatMap((t, i) => [["t:" + i, t], ["f:" + i, t + " \u2014 failed"]])),
        (v) => { state.constraint = v; }),
      select("filter-ended", "ended by", [["-1", "any ending"]].concat(
        DATA.endings.map((name, i) => [String(i), name || "(none)"])), (v) => { state.ended = Number(v); }),
      el("input", {type: "search", id: "filter-search", placeholder: "search: task id, constraint, tool, rule\u2026",
        "aria-label": "search", oninput: (event) => {
          clearTimeout(timer);
          timer = setTimeout(() => { state.query = event.target.value.trim().toLowerCase(); applyFilters(); }, 150);
        }}),
      el("label", {}, el("input", {type: "checkbox", id: "filter-deep", disabled: !RUNS.some((run) => run.has_transcripts),
        onchange: (event) => { state.deep = event.target.checked; applyFilters(); }}), " search the transcripts too"),
      el("span", {id: "count", class: "muted", role: "status"}));
  }

  // ------------------------------------------------------------------ grid and list
  function renderGrid() {
    const visible = new Set(shown);
    const taskSet = new Set(shown.map((id) => EPS[id].task));
    const tasks = [];
    for (let t = 0; t < TASKS.length; t++) if (taskSet.has(t)) tasks.push(t);
    const page = tasks.slice(gridPage * GRID_PAGE, (gridPage + 1) * GRID_PAGE);
    const head = el("tr", {}, el("th", {}, "task"), RUNS.map((run, r) => [
      MULTI ? el("td", {class: "gap"}) : null,
      Array.from({length: maxTrial[r] + 1}, (_, k) => el("th", {title: `${run.label} trial ${k}`},
        MULTI ? `${run.label}${k}` : String(k)))]));
    const body = page.map((t) => el("tr", {"data-task": TASKS[t]},
      el("td", {class: "task"}, MULTI ? el("a", {href: taskHref(t)}, TASKS[t]) : TASKS[t]),
      RUNS.map((run, r) => {
        const ids = byRunTask[r].get(t) || [], byTrial = new Map(ids.map((id) => [EPS[id].trial, id]));
        return [MULTI ? el("td", {class: "gap"}) : null,
          Array.from({length: maxTrial[r] + 1}, (_, k) => {
            const id = byTrial.get(k);
            if (id === undefined) return el("td", {}, el("span", {class: "cell none", title: "not played"}));
            const e = EPS[id];
            return el("td", {}, el("a", {href: episodeHref(id), "data-episode": id,
              class: "cell " + (e.success ? "pass" : "fail") + (visible.has(id) ? "" : " dim"),
              title: `${run.label} ${TASKS[t]} trial ${k}: ${e.success ? "passed" : "failed"}, score ${fixed(e.score, 3)}`},
              e.success ? "\u2713" : "\u2717"));
          })];
      })));
    $("grid").replaceChildren(el("h2", {}, "Tasks \u00d7 trials"),
      el("p", {class: "muted"}, "Green: the episode succeeded, red: it failed. A cell opens its episode" +
        (MULTI ? "; a task opens the runs side by side." : ".")),
      pager(tasks.length, GRID_PAGE, gridPage, (p) => { gridPage = p; renderGrid(); }, "tasks"),
      el("table", {class: "grid"}, el("thead", {}, head), el("tbody", {}, body)));
  }

  // The reason a failed constraint gives (c[2], an index into DATA.reasons), or null.
  function reason(c) {
    return !c[1] && c.length > 2 && DATA.reasons && DATA.reasons[c[2]] !== undefined ? DATA.reasons[c[2]] : null;
  }
  function failedTypes(e) {
    return e.constraints.filter((c) => !c[1]).map((c) => el("span", {class: "tag fail", title: reason(c)}, DATA.types[c[0]]));
  }
  function redundantView(e) {
    const writes = e.redundant || [];
    if (!writes.length) return e.redundant_writes ? el("p", {class: "muted"},
      "The run's records do not list which writes they were.") : null;
    return el("ul", {class: "redundant"}, writes.map(([tool, target]) => el("li", {"data-redundant": tool},
      el("code", {}, tool), target === null || target === undefined ? " (no target)" : [" on ", el("code", {}, target)])));
  }
  function renderList() {
    const page = shown.slice(listPage * LIST_PAGE, (listPage + 1) * LIST_PAGE);
    const heads = (MULTI ? ["run"] : []).concat(["task", "trial", "outcome", "score", "reward", "turns",
      "tool calls", "violations", "redundant writes", "ended by", "failed constraints"]);
    const rows = page.map((id) => {
      const e = EPS[id];
      return el("tr", {"data-episode": id, onclick: () => { location.hash = episodeHref(id); }},
        MULTI ? el("td", {}, swatch(e.run), RUNS[e.run].label) : null,
        el("td", {}, el("a", {href: episodeHref(id)}, TASKS[e.task])),
        el("td", {class: "num"}, e.trial),
        el("td", {class: e.success ? "pass" : "fail"}, e.success ? "passed" : "failed"),
        el("td", {class: "num"}, fixed(e.score, 3)), el("td", {class: "num"}, fixed(e.reward, 3)),
        el("td", {class: "num"}, e.turns), el("td", {class: "num"}, e.tool_calls),
        el("td", {class: "num"}, e.violations), el("td", {class: "num"}, e.redundant_writes),
        el("td", {}, DATA.endings[e.ended]), el("td", {}, failedTypes(e)));
    });
    $("episodes").replaceChildren(el("h2", {}, "Episodes"),
      pager(shown.length, LIST_PAGE, listPage, (p) => { listPage = p; renderList(); }, "episodes"),
      el("table", {class: "list", id: "episode-list"},
        el("thead", {}, el("tr", {}, heads.map((h) => el("th", {}, h)))), el("tbody", {}, rows)));
  }

  // ------------------------------------------------------------------ one episode
  function callView(call) {
    const stage = call.stage === null || call.stage === undefined ? "?" : call.stage;
    const bad = !call.ok;
    const result = call.result || "";
    return el("div", {class: "call" + (bad ? " bad" : ""), "data-call": call.name},
      el("div", {class: "head"}, el("code", {}, call.name),
        el("span", {class: "tag " + (bad ? "fail" : "pass")},
          `stage ${stage} \u00b7 ${DATA.stages[stage] || "unknown"}`),
        call.write ? el("span", {class: "tag"}, "write") : null,
        call.planned === false ? el("span", {class: "tag fail"}, "not in the reference plan") : null),
      el("pre", {class: "arguments"}, JSON.stringify(call.arguments, null, 2)),
      el("details", {open: result.length <= 600},
        el("summary", {}, `result (${result.length} characters)`), el("pre", {class: "result"}, result)));
  }
  function turnView(turn) {
    if (turn.who === "user") {
      const env = /^Error:/.test(turn.text);
      return el("div", {class: "turn user"}, el("div", {class: "who"}, env ? "env" : "user"),
        el("div", {class: "text"}, turn.text));
    }
    return el("div", {class: "turn agent"}, el("div", {class: "who"}, "agent"),
      turn.text ? el("div", {class: "text"}, turn.text) : null, turn.calls.map(callView));
  }
  function verdictView(e, t) {
    const failed = e.constraints.filter((c) => !c[1]);
    const kinds = Object.keys(e.violation_counts);
    const writes = t ? t.turns.flatMap((turn) => turn.calls || []).filter((c) => c.write) : [];
    const done = writes.filter((c) => c.ok), undone = writes.filter((c) => !c.ok);
    const penalty = Math.max(0, 1 - 0.25 * ((e.redundant_writes || 0) + (e.violations || 0)));
    const box = el("div", {class: "verdict " + (e.success ? "passed" : "failed")},
      el("h3", {}, "Verification: ", el("span", {class: e.success ? "pass" : "fail"}, e.success ? "passed" : "failed")),
      el("p", {class: "mono"}, `score ${fixed(e.score, 3)} = satisfied fraction ${fixed(e.satisfied_fraction, 3)}` +
        ` \u00d7 max(0, 1 \u2212 0.25 \u00d7 (${e.redundant_writes} redundant writes + ${e.violations} violations))` +
        ` = ${fixed(e.satisfied_fraction, 3)} \u00d7 ${fixed(penalty, 2)}`),
      el("h3", {}, "Constraints"),
      e.constraints.length ? el("ul", {}, e.constraints.map((c) => el("li", {"data-constraint": DATA.types[c[0]],
        class: c[1] ? "pass" : "fail"}, c[1] ? "\u2713 " : "\u2717 ", DATA.types[c[0]], c[1] ? " held" :
        reason(c) ? [" failed: ", el("span", {class: "reason"}, reason(c))] :
        " failed: not met at the end (checked by rule on the final database and the agent's messages)")))
        : el("p", {class: "muted"}, "none"),
      el("h3", {}, "Policy rules broken"),
      kinds.length ? el("ul", {}, kinds.map((k) => el("li", {"data-rule": DATA.kinds[k]},
        `${DATA.kinds[k]} \u00d7 ${e.violation_counts[k]}`, el("span", {class: "muted"},
          DATA.rules[DATA.kinds[k]] ? " \u2014 " + DATA.rules[DATA.kinds[k]] : ""))))
        : el("p", {class: "muted"}, "none"),
      el("h3", {}, `Redundant writes: ${e.redundant_writes}`),
      el("p", {class: "muted"}, "A write is redundant when no constraint needs it (a wrong entity, or done already)."),
      redundantView(e),
      t ? el("div", {}, el("strong", {}, `Writes that changed the database (${done.length})`),
        done.length ? el("ul", {}, done.map((c) => el("li", {}, el("code", {}, c.name), " ",
          el("span", {class: "mono"}, JSON.stringify(c.arguments)),
          c.planned === false ? el("span", {class: "tag fail"}, "not in the reference plan") :
          c.planned ? el("span", {class: "tag pass"}, "in the reference plan") : null)))
          : el("p", {class: "muted"}, "none: the database ended as it began"),
        undone.length ? el("p", {class: "muted"}, `${undone.length} more write attempts failed and were rolled back.`) : null)
        : null);
    if (e.tau2) {
      box.append(el("h3", {}, "tau2's rule"), el("ul", {},
        Object.entries(e.tau2).map(([k, v]) => el("li", {}, `${k}: ${JSON.stringify(v)}`))));
    }
    if (failed.length === 0 && !e.success && !kinds.length && !e.redundant_writes) {
      box.append(el("p", {class: "muted"}, "The episode was not verified by the env (ended: " +
        DATA.endings[e.ended] + ")."));
    }
    return box;
  }
  function factsView(id) {
    const e = EPS[id];
    const facts = [["run", label(e.run)], ["task", TASKS[e.task]], ["trial", e.trial], ["seed", e.seed],
      ["outcome", e.success ? "passed" : "failed"], ["score", fixed(e.score, 3)], ["reward", fixed(e.reward, 3)],
      ["turns", e.turns], ["tool calls", e.tool_calls], ["errors", e.errors], ["violations", e.violations],
      ["redundant writes", e.redundant_writes], ["ended by", DATA.endings[e.ended]]];
    if (!e.counted) facts.push(["summary", "not counted (outside the run's tasks or trials)"]);
    return el("table", {class: "facts"}, el("tbody", {}, facts.map(([k, v]) =>
      el("tr", {}, el("th", {}, k), el("td", {class: k === "outcome" ? (e.success ? "pass" : "fail") : ""}, v)))));
  }
  function episodeView(id) {
    const e = EPS[id], run = RUNS[e.run];
    const failed = e.constraints.filter((c) => !c[1]).map((c) => DATA.types[c[0]] + (reason(c) ? ` (${reason(c)})` : ""));
    const view = el("div", {class: "episode", "data-episode": id}, factsView(id),
      el("p", {}, el("strong", {class: e.success ? "pass" : "fail"}, e.success ? "Passed. " : "Failed. "),
        failed.length ? `Failed constraints: ${failed.join("; ")}. ` : "",
        e.violations ? `${e.violations} rule violations. ` : "",
        e.redundant_writes ? `${e.redundant_writes} redundant writes` + ((e.redundant || []).length ?
          ` (${e.redundant.map(([tool, target]) => target === null || target === undefined ? tool : `${tool} on ${target}`).join(", ")}). ` : ". ") : "",
        el("a", {href: "#", onclick: (event) => { event.preventDefault();
          view.querySelector(".verdict").scrollIntoView(); }}, "verification")));
    const body = el("div", {class: "transcript"}, el("p", {class: "muted"}, "loading the transcript\u2026"));
    view.append(el("h3", {}, "Transcript"), body);
    if (e.transcript === undefined) {
      body.replaceChildren(transcriptsNote(e.run));
      view.append(verdictView(e, null));
      return view;
    }
    transcript(id).then((t) => {
      const tools = run.toolsets[t.tools] || [];
      fill(body,
        t.system !== null ? el("details", {}, el("summary", {}, "system prompt"),
          el("pre", {}, run.prompts[t.system])) : null,
        el("details", {}, el("summary", {}, `tools shown (${tools.length})`),
          el("p", {class: "mono"}, tools.join(", "))),
        t.turns.map(turnView));
      add(view, verdictView(e, t), t.plan.length ? el("details", {}, el("summary", {},
        `reference plan (${t.plan.length} calls)`), el("ol", {}, t.plan.map((step) =>
          el("li", {}, el("code", {}, step.name), " ", el("span", {class: "mono"}, JSON.stringify(step.arguments))))))
        : null);
      view.setAttribute("data-loaded", "");
    }).catch((error) => {
      body.replaceChildren(el("p", {class: "note"}, "The transcript cannot be shown: " + String(error.message || error)));
      view.append(verdictView(e, null));
    });
    return view;
  }

  // ------------------------------------------------------------------ viewer and routing
  const viewer = $("viewer");
  function openViewer(title, wide, ...content) {
    viewer.hidden = false;
    viewer.classList.toggle("wide", wide);
    viewer.replaceChildren(el("div", {class: "bar"}, el("h2", {}, title), ...content.slice(0, -1),
      el("button", {type: "button", id: "close-viewer", onclick: () => { location.hash = "#"; }}, "close \u00d7")),
      content[content.length - 1]);
    viewer.scrollTop = 0;
  }
  function showEpisode(id) {
    const at = shown.indexOf(id);
    const step = (d) => el("button", {type: "button", disabled: at < 0 || shown[at + d] === undefined,
      onclick: () => { location.hash = episodeHref(shown[at + d]); }}, d < 0 ? "\u2190 previous" : "next \u2192");
    const e = EPS[id];
    openViewer(`${MULTI ? RUNS[e.run].label + " \u00b7 " : ""}${TASKS[e.task]} \u00b7 trial ${e.trial}`, false,
      step(-1), step(1), MULTI ? el("a", {href: taskHref(e.task)}, "side by side") : null, episodeView(id));
  }
  function showTask(task) {
    const columns = RUNS.map((run, r) => {
      const ids = byRunTask[r].get(task) || [];
      const column = el("div", {class: "column", "data-run": r});
      const pick = (id) => {
        column.replaceChildren(el("h3", {}, swatch(r), label(r), el("span", {class: "muted"}, " \u2014 " + run.config.policy)),
          el("div", {class: "pager"}, ids.map((other) => el("a", {href: "#", "data-episode": other,
            class: "cell " + (EPS[other].success ? "pass" : "fail"), title: `trial ${EPS[other].trial}`,
            style: other === id ? "outline: 2px solid #1d232b" : "",
            onclick: (event) => { event.preventDefault(); pick(other); }}, String(EPS[other].trial)))),
          id === undefined ? el("p", {class: "muted"}, "this run did not play the task") : episodeView(id));
      };
      pick(ids.find((id) => !EPS[id].success) ?? ids[0]);
      return column;
    });
    openViewer(`${TASKS[task]}: ${RUNS.map((run) => run.label).join(" vs ")}`, true, el("div", {class: "columns"}, columns));
  }
  function route() {
    const hash = location.hash.slice(1);
    if (hash.startsWith("episode=")) {
      const id = Number(hash.slice(8));
      if (Number.isInteger(id) && id >= 0 && id < EPS.length) return showEpisode(id);
    } else if (hash.startsWith("task=")) {
      const task = TASKS.indexOf(decodeURIComponent(hash.slice(5)));
      if (task >= 0) return showTask(task);
    }
    viewer.hidden = true;
    viewer.replaceChildren();
  }
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !viewer.hidden) location.hash = "#";
  });

  // ------------------------------------------------------------------ start
  renderRuns();
  renderSummary();
  renderCompare();
  renderFilters();
  applyFilters();
  route();
  const ready = performance.now();
  document.documentElement.setAttribute("data-ready-ms", ready.toFixed(0));
  $("status").textContent = `${EPS.length} episodes, ${TASKS.length} tasks` +
    (MULTI ? `, ${RUNS.length} runs` : "");
  $("footer").textContent = `tool_gym report \u00b7 interactive ${ready.toFixed(0)} ms after the page started loading`;
})();
