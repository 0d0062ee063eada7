// swerl view: the run's pages in plain JavaScript (no framework, no build step, no network beyond the viewer).
// Served: page data comes from api/<key>. Exported (data-static="1"): from data/<key>.js scripts that call
// swerl_data(key, json), which file:// pages may load. Every string from the run goes into the DOM as text.
"use strict";

const STATIC = document.documentElement.dataset.static === "1";
const main = document.getElementById("main");
const tip = document.getElementById("tip");
const pending = new Map();
const NR = "not recorded";

// ---- data ---------------------------------------------------------------------------------------------
function fileOf(key) {  // in step with swerl/view/export.py:file_name
  let out = "";
  for (const ch of key) {
    if (/[A-Za-z0-9._-]/.test(ch)) { out += ch; continue; }
    for (const b of new TextEncoder().encode(ch)) out += "~" + b.toString(16).padStart(2, "0");
  }
  return "data/" + out + ".js";
}

window.swerl_data = function (key, data) {
  const p = pending.get(key);
  if (p) { pending.delete(key); p.resolve(data); }
};

function load(key) {
  if (!STATIC) {
    const [path, query] = key.split("?");
    const parts = path.split("/");
    const url = "api/" + [parts[0], ...parts.slice(1).map(encodeURIComponent)].join("/") + (query ? "?" + query : "");
    return fetch(url).then(async (r) => {
      const body = await r.json();
      if (!r.ok) throw new Error(body.error || r.statusText);
      return body;
    });
  }
  return new Promise((resolve, reject) => {
    pending.set(key, { resolve });
    const s = document.createElement("script");
    s.src = fileOf(key);
    s.onerror = () => { pending.delete(key); s.remove(); reject(new Error("not in this export: " + key)); };
    s.onload = () => s.remove();
    document.head.appendChild(s);
  });
}

// ---- DOM helpers --------------------------------------------------------------------------------------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "onclick" || k === "oninput" || k === "onchange") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v;  // CSSOM, not an inline style attribute (the CSP forbids those)
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const fmt = (v, d = 3) => v === null || v === undefined ? "–" : typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(d)) : String(v);
const link = (href, text) => h("a", { href }, text);
const rolloutHref = (id) => "#/rollout/" + encodeURIComponent(id);
const kv = (pairs) => h("dl", { class: "kv" }, pairs.filter((p) => p).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
const pre = (text) => h("pre", {}, text === null || text === undefined || text === "" ? "(none)" : String(text));
const json = (obj) => pre(JSON.stringify(obj, null, 2));
function table(head, rows) {
  return h("table", {}, h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, c)))), h("tbody", {}, rows));
}
function render(...kids) {  // replaceChildren does not flatten lists or skip nulls: do it here
  main.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
}
function setTitle(text) { document.getElementById("runname").textContent = text; }

// ---- charts (inline SVG) ------------------------------------------------------------------------------
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"];
function chart(title, steps, series) {
  const W = 340, H = 150, L = 40, B = 18;
  const vals = series.flatMap((s) => s.ys.filter((y) => y !== null));
  const box = h("div", { class: "chart" }, h("div", { class: "title" }, title));
  if (!vals.length || !steps.length) { box.append(h("div", { class: "muted" }, "no data yet")); return box; }
  let lo = Math.min(...vals), hi = Math.max(...vals);
  if (lo === hi) { lo -= 0.5; hi += 0.5; }
  const x0 = steps[0], x1 = steps[steps.length - 1] === x0 ? x0 + 1 : steps[steps.length - 1];
  const X = (x) => L + (W - L - 6) * (x - x0) / (x1 - x0), Y = (y) => 6 + (H - B - 12) * (1 - (y - lo) / (hi - lo));
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.append(el);
  };
  add("line", { x1: L, y1: H - B, x2: W - 6, y2: H - B, stroke: "#9ca3af" });
  add("line", { x1: L, y1: 6, x2: L, y2: H - B, stroke: "#9ca3af" });
  add("text", { x: 2, y: 12, "font-size": 10 }, String(Number(hi.toPrecision(4))));
  add("text", { x: 2, y: H - B, "font-size": 10 }, String(Number(lo.toPrecision(4))));
  add("text", { x: L, y: H - 4, "font-size": 10 }, "update " + x0);
  add("text", { x: W - 60, y: H - 4, "font-size": 10 }, String(steps[steps.length - 1]));
  series.forEach((s, i) => {
    let d = "", pen = false;
    s.ys.forEach((y, k) => {
      if (y === null) { pen = false; return; }
      d += (pen ? "L" : "M") + X(steps[k]).toFixed(1) + "," + Y(y).toFixed(1);
      pen = true;
    });
    s.ys.forEach((y, k) => {  // a value with no neighbour (validation every N updates) is a dot, not an invisible move
      const alone = y !== null && (k === 0 || s.ys[k - 1] === null) && (k === s.ys.length - 1 || s.ys[k + 1] === null);
      if (alone) add("circle", { cx: X(steps[k]), cy: Y(y), r: 2.5, fill: COLORS[i % 6] });
    });
    add("path", { d, fill: "none", stroke: COLORS[i % 6], "stroke-width": 1.5 });
  });
  box.append(svg, h("div", { class: "legend" }, series.map((s, i) => h("span", {}, h("i", { style: "background:" + COLORS[i % 6] }), s.key))));
  return box;
}

// ---- pages --------------------------------------------------------------------------------------------
function trainRun(d) {
  setTitle(d.name);
  const st = d.store;
  const states = st ? Object.entries(st.rollouts_by_state).map(([k, v]) => k + " " + v).join(", ") : "no gateway store in the run dir";
  const r = d.recipe || {};
  const charts = h("div", { class: "charts", id: "charts" }, d.charts.map((c) => chart(c.title, d.steps,
    c.keys.filter((k) => (d.series[k] || []).some((y) => y !== null)).map((k) => ({ key: k, ys: d.series[k] })))));
  const rows = d.updates.map((u) => h("tr", { class: "click update-row", "data-step": u.step, onclick: () => { location.hash = "#/update/" + u.step; } },
    h("td", {}, link("#/update/" + u.step, String(u.step))), ["train/reward_mean", "val/reward_mean", "train/rollouts", "train/groups",
      "assembly/samples_per_rollout", "staleness/mean", "staleness/dropped", "hacking/total", "rollouts/failed_infra", "policy/entropy", "time/step_s"]
      .map((k) => h("td", { class: "num" }, fmt(u[k]))), h("td", {}, u.recorded ? "" : h("span", { class: "muted" }, "metrics only"))));
  render(
    h("h1", {}, "Training run ", h("code", {}, d.name)),
    kv([["path", d.path], ["recipe", (r.description || "") + (r.algorithm ? " — " + r.algorithm.name + ", merge " + (r.algorithm.merge || "best_effort") : "")],
      ["model / tokenizer", r.model ? r.model.path + " / " + r.model.tokenizer : "–"], ["gateway store", st ? "schema " + st.schema + ", policy version " + fmt(st.policy_version) : "–"],
      ["rollouts", states], ["checkpoints", d.checkpoints.join(", ") || "none"], ["viewer", "swerl " + d.viewer_version]]),
    d.updates_recorded ? null : h("p", { class: "warn" }, "This run has no updates.jsonl (written by swerl train since the viewer exists): update pages show metrics only; rollouts are reachable through search."),
    h("h2", {}, "Curves"), charts,
    h("h2", {}, "Updates (" + d.updates.length + ")"),
    table(["update", "reward", "val", "rollouts", "groups", "samples/rollout", "staleness", "dropped stale", "hacking", "infra failed", "entropy", "time s", ""], rows),
    h("h2", {}, "Recipe"), h("details", {}, h("summary", {}, "resolved recipe.yaml"), json(d.recipe)));
}

const FILTERS = { reward: "any", hacked: "any", failed: "any", cause: "any", text: "" };
function keepRow(r) {
  const f = FILTERS;
  if (f.reward === "zero" && r.reward !== 0) return false;
  if (f.reward === "positive" && !(r.reward > 0)) return false;
  if (f.hacked === "yes" && !r.hacking.length) return false;
  if (f.hacked === "no" && r.hacking.length) return false;
  if (f.failed === "infra" && !r.infra_failures) return false;
  if (f.failed === "agent" && r.state !== "failed_agent") return false;
  if (f.failed === "none" && (r.state !== "succeeded" || r.infra_failures)) return false;
  if (f.cause === "none" && r.causes.length) return false;
  if (f.cause !== "any" && f.cause !== "none" && !r.causes.includes(f.cause)) return false;
  const t = f.text.toLowerCase();
  return !t || (r.id + " " + (r.instance || "") + " " + (r.exit_status || "")).toLowerCase().includes(t);
}

function rolloutRow(r) {
  const tags = [...r.causes.map((c) => h("span", { class: "tag warn" }, c)), ...r.hacking.map((x) => h("span", { class: "tag bad", title: x.evidence }, "hack: " + x.kind))];
  return h("tr", { class: "click rollout-row", "data-id": r.id, onclick: () => { location.hash = rolloutHref(r.id); } },
    h("td", {}, link(rolloutHref(r.id), r.id)), h("td", { class: "num" }, fmt(r.reward)), h("td", { class: "num" }, fmt(r.advantage)),
    h("td", { class: "num" }, fmt(r.staleness)), h("td", { class: "num" }, (r.attempt ?? "–") + "/" + (r.max_attempts ?? "–") + (r.infra_failures ? " (" + r.infra_failures + " infra)" : "")),
    h("td", { class: "num" }, fmt(r.samples)), h("td", { class: "num" }, fmt(r.tokens) + " / " + fmt(r.response_tokens)),
    h("td", {}, r.state || "–", r.final_reason ? h("div", { class: "muted" }, String(r.final_reason).slice(0, 80)) : null),
    h("td", {}, r.exit_status || "–", r.resolved ? h("span", { class: "tag ok" }, "resolved") : null),
    h("td", {}, tags, r.matches_record === false ? h("span", { class: "tag bad" }, "differs from record") : null));
}

function updatePage(d) {
  const m = d.metrics || {};
  const body = h("tbody", {});
  const draw = () => {
    body.replaceChildren();
    let shown = 0;
    for (const g of d.groups) {
      const rows = g.rollouts.filter(keepRow);
      if (!rows.length) continue;
      body.append(h("tr", { class: "grouphead" }, h("td", { colspan: 10 }, "group ", g.group_id)));
      rows.forEach((r) => body.append(rolloutRow(r)));
      shown += rows.length;
    }
    count.textContent = shown + " of " + d.groups.reduce((n, g) => n + g.rollouts.length, 0) + " trained rollouts shown";
  };
  const count = h("span", { class: "muted" });
  const sel = (name, opts) => h("label", {}, name + " ", h("select", { "data-filter": name, onchange: (e) => { FILTERS[name] = e.target.value; draw(); } },
    opts.map((o) => { const el = h("option", { value: o }, o); el.selected = FILTERS[name] === o; return el; })));
  const causes = ["any", "none", "think_dropped", "retokenize_drift", "rewritten_output", "context_edit", "reply_dropped", "other", "per_call"];
  render(
    h("h1", {}, "Update " + d.step), h("p", {}, link("#/", "← run")),
    kv([["policy version trained against", fmt(d.version)], ["reward (train / val)", fmt(m["train/reward_mean"]) + " / " + fmt(m["val/reward_mean"])],
      ["rollouts / groups", fmt(m["train/rollouts"]) + " / " + fmt(m["train/groups"])], ["samples per rollout", fmt(m["assembly/samples_per_rollout"])],
      ["staleness mean / max / dropped", fmt(m["staleness/mean"]) + " / " + fmt(m["staleness/max"]) + " / " + fmt(m["staleness/dropped"])],
      ["split causes", Object.entries(d.causes || {}).map(([k, v]) => k + " " + v).join(", ") || "none (every rollout one sample)"],
      ["hacking blocked", fmt(m["hacking/total"])], ["time (rollout / update / sync s)", fmt(m["time/rollout_s"], 2) + " / " + fmt(m["time/update_s"], 2) + " / " + fmt(m["time/sync_s"], 2)]]),
    d.recorded ? null : h("p", { class: "warn" }, "No updates.jsonl line for this update: only its metrics are known."),
    h("div", { class: "filters" }, sel("reward", ["any", "zero", "positive"]), sel("hacked", ["any", "yes", "no"]),
      sel("failed", ["any", "none", "infra", "agent"]), sel("cause", causes),
      h("label", {}, "search ", h("input", { type: "search", value: FILTERS.text, "data-filter": "text", oninput: (e) => { FILTERS.text = e.target.value; draw(); } })), count),
    h("table", {}, h("thead", {}, h("tr", {}, ["rollout", "reward", "advantage", "staleness", "attempt", "samples", "tokens / trained", "state", "exit / grade", "splits, hacking"].map((c) => h("th", {}, c)))), body),
    d.others && d.others.length ? [h("h2", {}, "Not trained in this update"), table(["rollout", "why", "state", "reward"],
      d.others.map((r) => h("tr", {}, h("td", {}, link(rolloutHref(r.id), r.id)), h("td", {}, r.status), h("td", {}, r.state || "–"), h("td", { class: "num" }, fmt(r.reward)))))] : null,
    h("h2", {}, "All metrics"), h("details", {}, h("summary", {}, Object.keys(m).length + " values"), json(m)));
  draw();
}

function messages(list) {
  return (list || []).map((msg) => h("div", { class: "msg " + (msg.role || "") }, h("div", { class: "role" }, msg.role || "?"), h("pre", {}, msg.content || "")));
}

function showTip(e, text) { tip.textContent = text; tip.hidden = false; tip.style.left = Math.min(e.clientX + 12, innerWidth - 440) + "px"; tip.style.top = (e.clientY + 14) + "px"; }

function tokenView(s) {
  const box = h("div", { class: "tokens", "data-sample": s.index });
  const starts = new Set(s.calls.map((c) => c.response[0]));
  const frag = document.createDocumentFragment();
  for (let i = 0; i < s.ids.length; i++) {
    const cls = "tok " + (s.mask[i] ? "tr" : "ms") + (starts.has(i) ? " cb" : "");
    const el = document.createElement("span");
    el.className = cls;
    el.dataset.i = i;
    el.textContent = s.text[i];
    frag.append(el);
  }
  box.append(frag);
  requestAnimationFrame(() => {  // long prompts: start the view just above the first trained token
    const first = box.querySelector(".tok.tr");
    if (first) box.scrollTop = Math.max(0, first.offsetTop - box.offsetTop - 60);
  });
  box.addEventListener("mousemove", (e) => {
    const i = e.target.dataset ? e.target.dataset.i : undefined;
    if (i === undefined) { tip.hidden = true; return; }
    const k = Number(i), trained = !!s.mask[k];
    showTip(e, "token " + k + "  id " + s.ids[k] + "  " + JSON.stringify(s.text[k]) + "\n" + (trained ? "trained (loss mask 1)" : "masked (prompt / observation)") +
      "\nbehaviour log-prob " + (trained ? fmt(s.logprob[k], 4) : "–") + "\nadvantage " + (trained ? (s.advantage === null || s.advantage === undefined ? NR : fmt(s.advantage, 4) + " (" + s.per_token.advantage + ")") : "–") +
      "\nratio " + s.per_token.ratio + "   DIS mask " + s.per_token.dis_mask);
  });
  box.addEventListener("mouseleave", () => { tip.hidden = true; });
  return box;
}

function sampleBlock(s, n) {
  const ok = s.matches_record === null ? h("span", { class: "muted" }, "no update record to check against")
    : s.matches_record ? h("span", { class: "ok" }, "sizes match the update's record") : h("span", { class: "bad" }, "sizes differ from the update's record");
  return h("div", { class: "sample", "data-index": s.index },
    s.split_before ? h("div", { class: "split" }, "split here: ", h("b", {}, s.split_before), " — the next call's prompt did not extend sample " + (s.index - 1) + " token for token") : null,
    h("div", { class: "shead" }, h("b", {}, "sample " + s.index + " of " + n), " · " + s.tokens + " tokens, " + s.response_tokens + " trained · advantage " +
      (s.advantage === null || s.advantage === undefined ? NR : fmt(s.advantage, 4)) + " · calls " + s.calls.map((c) => c.seq).join(", ") +
      " · policy versions " + s.policy_versions.join(", ") + " · ", ok,
      h("div", { class: "legendbox muted" }, h("span", {}, h("span", { class: "tok tr" }, "trained"), " response token (loss mask 1)"),
        h("span", {}, h("span", { class: "tok ms" }, "masked"), " prompt / observation"), h("span", {}, h("span", { class: "tok cb" }, "│"), " a call's response starts"),
        h("span", {}, "per-token ratio: " + s.per_token.ratio + ", DIS mask: " + s.per_token.dis_mask))),
    tokenView(s));
}

function rolloutPage(d) {
  const o = d.outcome || {}, rec = d.record || {};
  const traj = d.trajectory;
  const conv = traj ? traj.messages : d.calls.flatMap((c) => [...c.new_messages, ...(c.reply ? [{ role: "assistant", content: c.reply }] : [])]);
  const calls = d.calls.map((c) => h("tr", {}, [c.seq, c.attempt, c.policy_version, c.mode, c.prompt_tokens, c.response_tokens].map((v) => h("td", { class: "num" }, fmt(v))),
    h("td", { class: "num" }, fmt(c.latency_s, 2)), h("td", { class: "num" }, fmt(c.hold_s, 2)), h("td", {}, c.finish_reason || "–"),
    h("td", { class: c.error ? "bad" : "" }, c.error || (c.http_status && c.http_status !== 200 ? "HTTP " + c.http_status : "")), h("td", {}, c.sample === null || c.sample === undefined ? "–" : String(c.sample))));
  render(
    h("h1", {}, "Rollout ", h("code", {}, d.id)),
    h("p", {}, d.step ? link("#/update/" + d.step, "← update " + d.step) : link("#/", "← run"), d.step ? "" : h("span", { class: "muted" }, " (not in any recorded update: validation, in flight, or not trained)")),
    kv([["group", d.group], ["task", (d.metadata || {}).instance_id || "–"], ["split", (d.metadata || {}).split || "–"], ["state", d.state + (o.final_reason ? " — " + o.final_reason : "")],
      ["attempt", d.attempt + " of " + d.max_attempts + (o.infra_failures ? " (" + o.infra_failures + " infrastructure failures retried)" : "")],
      ["reward / advantage / staleness", fmt(o.reward ?? rec.reward) + " / " + fmt(rec.samples && rec.samples.length ? rec.samples[0][2] : null) + " / " + fmt(rec.staleness)],
      ["held by the gateway", fmt(d.held_s, 2) + " s"], ["assembly", d.merge_mode + (d.tokenizer ? "" : " (tokenizer unavailable: tokens shown as ids)")]]),
    d.hacking.length ? [h("h2", { class: "bad" }, "Hacking attempts blocked"), table(["kind", "command", "evidence"], d.hacking.map((x) => h("tr", {}, h("td", {}, x.kind), h("td", {}, pre(x.command)), h("td", {}, pre(x.evidence)))))] : null,
    h("h2", {}, "Training samples (" + d.samples.length + ")"),
    d.samples.length ? d.samples.map((s) => sampleBlock(s, d.samples.length)) : h("p", { class: "muted" }, "no usable model call: nothing to train on"),
    h("h2", {}, "LLM calls (" + d.calls.length + ")"),
    table(["seq", "attempt", "policy", "mode", "prompt tok", "response tok", "latency s", "hold s", "finish", "error", "sample"], calls),
    h("h2", {}, "Conversation as the harness saw it"), h("p", { class: "muted" }, traj ? "from " + traj.file : "from the recorded requests (no trajectory file)"), messages(conv),
    h("h2", {}, "Patch"), pre(traj ? traj.patch : null),
    h("h2", {}, "Grade report"), o.reward_event ? json(o.reward_event) : pre(null),
    h("p", { class: "muted" }, "Grade log: training rollouts keep the grade report above (reward event data); the grader's log tail is not recorded for them."),
    h("h2", {}, "State history"), table(["attempt", "state", "reason"], (o.history || []).map((x) => h("tr", {}, h("td", {}, fmt(x.attempt)), h("td", {}, x.state), h("td", {}, x.reason || "")))),
    h("h2", {}, "Metadata"), json(d.metadata));
}

function compareBlock(c) {
  return h("div", { class: "compare" }, h("h3", {}, c.file + ": " + c.run_a + " → " + c.run_b),
    kv([["common instances", c.common], ["resolved A / B", fmt(c.a_resolved_pct, 1) + " % / " + fmt(c.b_resolved_pct, 1) + " %"],
      ["B − A", fmt(c.delta_pct, 1) + " points, " + Math.round(c.confidence * 100) + " % CI [" + fmt(c.ci_low, 1) + ", " + fmt(c.ci_high, 1) + "]"],
      ["gained", c.gained.map((f) => f.instance_id).join(", ") || "none"], ["lost", c.lost.map((f) => f.instance_id).join(", ") || "none"]]),
    table(["repo", "instances", "A resolved", "B resolved", "delta %"], c.per_repo.map((r) => h("tr", {}, h("td", {}, r.repo), [r.instances, r.a_resolved, r.b_resolved, r.delta_pct].map((v) => h("td", { class: "num" }, fmt(v, 1)))))));
}

function evalRun(d) {
  setTitle(d.name);
  const rep = d.report || {};
  const m = d.manifest || {};
  render(
    h("h1", {}, "Evaluation run ", h("code", {}, d.name)),
    d.error ? h("p", { class: "bad" }, d.error) : null,
    kv([["path", d.path], ["model", m.model ? m.model.name + " (" + m.model.kind + ")" : "–"], ["dataset", (m.dataset || "–") + " " + (m.split || "")],
      ["backend / grader", (m.backend || "–") + " / " + (m.grader || "–")], ["resolved", rep.resolved_pct !== undefined ? fmt(rep.resolved_pct, 1) + " % of " + rep.total : "no report.json yet"],
      ["outcomes", Object.entries(rep.counts || {}).map(([k, v]) => k + " " + v).join(", ") || "–"], ["pass@k", Object.entries(rep.pass_at_k || {}).map(([k, v]) => k + " " + fmt(v)).join(", ") || "–"],
      ["viewer", "swerl " + d.viewer_version]]),
    d.compare.length ? [h("h2", {}, "Comparisons"), d.compare.map(compareBlock)] : null,
    h("h2", {}, "Instances (" + d.instances.length + ")"),
    table(["instance", "repo", "attempts: outcome (exit status, calls)"], d.instances.map((i) => h("tr", { class: "click instance-row", onclick: () => { location.hash = "#/instance/" + encodeURIComponent(i.instance_id); } },
      h("td", {}, link("#/instance/" + encodeURIComponent(i.instance_id), i.instance_id)), h("td", {}, i.repo),
      h("td", {}, i.attempts.map((a) => h("span", { class: "tag " + (a.outcome === "resolved" ? "ok" : a.outcome === "infra_failure" || a.outcome === "error" ? "bad" : "") },
        a.attempt + ": " + a.outcome + " (" + (a.exit_status || "–") + ", " + fmt(a.n_calls) + ")")))))));
}

function instancePage(d) {
  render(h("h1", {}, "Instance ", h("code", {}, d.instance_id)), h("p", {}, link("#/", "← run"), " ", d.repo),
    d.attempts.map((a) => h("div", { class: "attempt" }, h("h2", {}, "Attempt " + a.attempt + (a.grade ? ": " + a.grade.outcome : "")),
      a.agent ? kv([["exit status", a.agent.exit_status], ["calls / tokens", a.agent.n_calls + " / " + (a.agent.prompt_tokens + a.agent.completion_tokens)],
        ["duration", fmt(a.agent.duration_s, 1) + " s"], ["error", a.agent.error ? a.agent.error_kind + ": " + a.agent.error : "none"]]) : h("p", { class: "muted" }, "no agent record"),
      h("h3", {}, "Patch"), pre(a.patch),
      h("h3", {}, "Grade"), a.grade ? [kv([["resolution", a.grade.resolution || "–"], ["grader", a.grade.grader], ["patch applied", fmt(a.grade.patch_applied)], ["error", a.grade.error || "none"]]),
        h("details", {}, h("summary", {}, "FAIL_TO_PASS / PASS_TO_PASS"), json({ fail_to_pass: a.grade.fail_to_pass, pass_to_pass: a.grade.pass_to_pass }))] : pre(null),
      h("h3", {}, "Grade log"), a.logs.length ? a.logs.map((f) => h("details", {}, h("summary", {}, f.name), pre(f.text))) : pre(null),
      h("h3", {}, "Trajectory"), a.trajectory ? h("details", {}, h("summary", {}, a.trajectory.length + " messages"), messages(a.trajectory)) : pre(null))));
}

function comparePage(d) { setTitle(d.name); render(h("h1", {}, "Comparison ", h("code", {}, d.name)), d.compare.map(compareBlock)); }

async function searchPage(q) {
  let hits;
  if (STATIC) {
    const idx = await load("search-index");
    const t = q.toLowerCase();
    hits = { rollouts: (idx.rollouts || []).filter(([id]) => id.toLowerCase().includes(t)).slice(0, 200).map(([id, step]) => ({ id, step })),
      instances: (idx.instances || []).filter((i) => i.toLowerCase().includes(t)).slice(0, 200) };
  } else hits = await load("search?q=" + encodeURIComponent(q));
  render(h("h1", {}, "Search: " + q), h("p", {}, link("#/", "← run")),
    hits.rollouts ? table(["rollout", "update", "state"], hits.rollouts.map((r) => h("tr", { class: "search-hit" }, h("td", {}, link(rolloutHref(r.id), r.id)),
      h("td", {}, r.step ? link("#/update/" + r.step, String(r.step)) : "–"), h("td", {}, r.state || "")))) : null,
    hits.instances ? table(["instance"], hits.instances.map((i) => h("tr", { class: "search-hit" }, h("td", {}, link("#/instance/" + encodeURIComponent(i), i))))) : null);
}

// ---- router -------------------------------------------------------------------------------------------
let runKind = null;
async function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [head, ...rest] = hash.split("/");
  const arg = decodeURIComponent(rest.join("/"));
  render(h("p", { class: "muted" }, "loading…"));
  document.body.dataset.view = "loading";
  try {
    if (!runKind) { const run = await load("run"); runKind = run.kind; if (!head) return show("run", run); }
    if (!head) return show("run", await load("run"));
    if (head === "update") return show("update", await load("update/" + arg));
    if (head === "rollout") return show("rollout", await load("rollout/" + arg));
    if (head === "instance") return show("instance", await load("instance/" + arg));
    if (head === "search") { await searchPage(arg); document.body.dataset.view = "search"; return; }
    render(h("p", { class: "bad" }, "unknown page"));
  } catch (err) {
    render(h("p", { class: "bad" }, "could not load this page: " + err.message), h("p", {}, link("#/", "← run")));
    document.body.dataset.view = "error";
  }
}
function show(view, d) {
  const pages = { run: { train: trainRun, eval: evalRun, compare: comparePage }[d.kind], update: updatePage, rollout: rolloutPage, instance: instancePage };
  pages[view](d);
  document.body.dataset.view = view;
  window.scrollTo(0, 0);
}
document.getElementById("search").addEventListener("submit", (e) => {
  e.preventDefault();
  const q = document.getElementById("q").value.trim();
  if (q) location.hash = "#/search/" + encodeURIComponent(q);
});
window.addEventListener("hashchange", route);
route();
