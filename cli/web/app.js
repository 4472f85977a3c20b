// The dicetree explorer page: talks to the JSON API of `dicetree explore` (see cli/explore.py).
// Plain JavaScript, no build step, nothing fetched from elsewhere. Tolerant of extra JSON fields.
"use strict";

const $ = (id) => document.getElementById(id);
const job = "tab-" + Math.random().toString(36).slice(2);  // one id per tab: its searches are its own

const state = {
  games: [],
  game: "",
  line: [],     // positions along the line played; line[0] is where it started
  moves: [],    // moves[i] led from line[i] to line[i + 1]
  cursor: 0,
  node: null,   // what /api/position said of line[cursor]
  analysis: null,
  analyses: [], // analyses[i]: the answer shown at line[i] (for the review of your moves)
  seats: [],    // seats[p]: "you" or "engine"
  picks: [],    // picks[i]: at a simultaneous node, {player: choice} of what each player chose there
};

// ----- talking to the server ------------------------------------------------------------------
function query(extra) {
  const params = new URLSearchParams();
  params.set("game", state.game);
  for (const rule of rules()) params.append("rule", rule);
  for (const [key, value] of Object.entries(extra || {})) {
    if (value !== undefined && value !== null && value !== "") params.set(key, value);
  }
  return params.toString();
}

function rules() {
  return $("rules").value.split(/\s+/).filter((text) => text.includes("="));
}

async function api(path, extra, kind) {
  const response = await fetch(`/api/${path}?${query(extra)}`);
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error || message; } catch (ignored) { /* not JSON */ }
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return kind === "text" ? response.text() : response.json();
}

function showError(error) {
  const box = $("error");
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

async function guarded(work) {
  try {
    showError(null);
    await work();
  } catch (error) {
    if (error.status !== 409) showError(error);  // 409: cancelled on purpose
  }
}

// ----- games and the address ------------------------------------------------------------------
async function loadGames() {
  state.games = await api("games", {});
  const select = $("game");
  for (const game of state.games) {
    const option = document.createElement("option");
    option.value = game.game;
    option.textContent = game.name;
    select.appendChild(option);
  }
}

function gameInfo() {
  return state.games.find((game) => game.game === state.game) || {};
}

function setGame(name) {
  state.game = name;
  $("game").value = name;
  const info = gameInfo();
  const facts = [info.players, info.simultaneous ? "players choose at once" : "players take turns"];
  if (info.hidden_information) facts.push("hidden information");
  if (info.exact_values) facts.push("stored exact values: " + info.exact_values);
  $("game-facts").textContent = facts.filter(Boolean).join("; ");
  $("probe-panel").hidden = !info.exact_values;
  $("probe-title").textContent = info.exact_values ? `Stored exact values: ${info.exact_values}` : "";
  showBuildForm();
  $("rules").title = (info.rule_options || []).map((option) => option.describe).join("\n") || "no rule options";
  api("rules", {}).then((answer) => { $("notation").textContent = answer.notation; }).catch(() => {});
}

function writeAddress() {
  // The address (and so a copied link) holds what you may see: your seat's view where the engine's
  // cards are hidden from you. This tab alone keeps the whole position, so a reload goes on with it.
  const shown = shownPosition();
  if (shown !== state.line[state.cursor]) sessionStorage.setItem(HIDDEN_KEY + shown, state.line[state.cursor]);
  const params = new URLSearchParams(query({ position: shown }));
  history.replaceState(null, "", "?" + params.toString());
}

const HIDDEN_KEY = "dicetree-whole:";  // sessionStorage: a view in the address -> the whole position behind it

// ----- the line played --------------------------------------------------------------------------
async function startLine(position) {
  const node = await api("position", { position, seat: viewSeat() });
  state.line = [node.position];
  state.analyses = [];
  state.picks = [];
  state.moves = [];
  state.cursor = 0;
  await showNode(node);
}

async function go(cursor) {
  if (cursor < 0 || cursor >= state.line.length) return;
  state.cursor = cursor;
  await showNode(await api("position", { position: state.line[cursor], seat: viewSeat() }));
}

async function play(extra) {
  const node = state.node;
  const answer = await api("apply", { position: state.line[state.cursor], seat: viewSeat(), ...extra });
  state.line = state.line.slice(0, state.cursor + 1).concat([answer.position]);
  state.moves = state.moves.slice(0, state.cursor).concat([answer.played]);
  state.analyses = state.analyses.slice(0, state.cursor + 1);
  state.picks = state.picks.slice(0, state.cursor);
  if (node && node.kind === "simultaneous" && extra.move) {  // who chose what, for the review
    const choosing = node.players.filter((name, index) => (node.choices[index] || []).length);
    const parts = extra.move.split(" | ");
    state.picks[state.cursor] = Object.fromEntries(choosing.map((name, index) => [name, parts[index]]));
  }
  state.cursor += 1;
  await showNode(answer, true);
}

async function showNode(node, engineMayMove) {
  state.node = node;
  state.analysis = null;
  const shown = node.seat ? node.view : node.position;  // a seat sees only its own view of the position
  $("position-input").value = shown;
  $("position-string").textContent = shown;
  $("node-text").textContent = summary(node);
  showBoard(node);
  $("tree").innerHTML = "";
  $("probe").textContent = "";
  showChance(node);
  showLine();
  writeAddress();
  clearAnalysis();
  showSeats(node);
  showReview();
  if (node.kind === "decision" || node.kind === "simultaneous") await analyse();
  if (engineMayMove) await engineTurn();
}

// ----- playing against the engine ------------------------------------------------------------------
function showSeats(node) {
  // One "you / engine" choice per player; kept while the game (and so the players) stay the same.
  const box = $("seats");
  if (box.dataset.players === node.players.join(",")) return;
  box.dataset.players = node.players.join(",");
  box.innerHTML = "";
  state.seats = node.players.map(() => "you");
  node.players.forEach((name, index) => {
    const select = document.createElement("select");
    select.className = "seat";
    select.id = "seat-" + index;
    for (const who of ["you", "engine"]) {
      const option = document.createElement("option");
      option.value = option.textContent = who;
      select.appendChild(option);
    }
    select.onchange = () => {
      state.seats[index] = select.value;
      guarded(async () => { await go(state.cursor); await engineTurn(); });  // the view may change with the seats
    };
    const label = document.createElement("label");
    label.textContent = name + " ";
    label.appendChild(select);
    box.appendChild(label);
  });
}

function viewSeat() {
  // Where the game hides something and you play against the engine, the page shows what your
  // (first) seat sees, unless "all-seeing" is ticked (for study).
  if (!gameInfo().hidden_information || $("all-seeing").checked) return "";
  if (!state.seats.includes("engine") || !state.seats.includes("you")) return "";
  return (state.node || {}).players ? state.node.players[state.seats.indexOf("you")] : "";
}

function shownPosition() {
  // The position as the page shows it: your seat's view where seats are hidden from each other
  // (so a tree or a probe shows no more than you may see), else the whole of it.
  return state.node && state.node.seat ? state.node.view : state.line[state.cursor];
}

function engineSeat(name) {
  const index = state.node.players.indexOf(name);
  return index >= 0 && state.seats[index] === "engine";
}

function sample(choices) {
  let pick = Math.random();
  for (const choice of choices) {
    pick -= choice.probability;
    if (pick < 0) return choice.choice ?? choice.move;
  }
  return choices[0].choice ?? choices[0].move;
}

async function engineTurn() {
  // The engine plays its seats with the analysis just shown; dice roll by themselves if asked.
  const node = state.node;
  if (!node) return;
  if (node.kind === "chance" && $("auto-roll").checked && state.seats.includes("engine")) {
    await play({ roll: 1, seed: Math.floor(Math.random() * 2 ** 31) });
  } else if (node.kind === "decision" && engineSeat(node.mover) && state.analysis && state.analysis.moves) {
    await play({ move: state.analysis.moves[0].move });
  } else if (node.kind === "simultaneous" && state.analysis && Array.isArray(state.analysis.players)) {
    const choosing = node.players.filter((name, index) => (node.choices[index] || []).length);
    if (choosing.length && choosing.every(engineSeat)) {
      const picks = choosing.map((name) => sample(choicesOf(state.analysis.players.find((p) => p.player === name))));
      await play({ move: picks.join(" | ") });
    }
  }
}

function showReview() {
  // At the end of a game: each of your moves against the best of the analysis shown before it.
  const box = $("review");
  box.innerHTML = "";
  if (!state.node || state.node.kind !== "terminal") return;
  const rows = [];
  state.moves.slice(0, state.cursor).forEach((move, index) => {
    const answer = state.analyses[index];
    if (!answer) return;
    if (Array.isArray(answer.players) && state.picks[index]) {  // choices made at once: each of yours
      for (const [player, choice] of Object.entries(state.picks[index])) {
        if (engineSeat(player)) continue;
        const own = answer.players.find((entry) => entry.player === player);
        const choices = choicesOf(own);
        const chosen = choices.find((entry) => (entry.choice ?? entry.move) === choice);
        const best = choices.reduce((top, entry) => (!top || entry.value > top.value ? entry : top), null);
        if (!chosen || !best) continue;
        rows.push([index + 1, `${player} ${best.choice ?? best.move}`, `${player} ${choice}`, chosen.value, chosen.loss || 0]);
      }
      return;
    }
    if (!Array.isArray(answer.moves) || engineSeatOf(answer)) return;
    const chosen = answer.moves.find((entry) => entry.move === move);
    if (chosen) rows.push([index + 1, answer.moves[0].move, move, chosen.value, chosen.loss || 0]);
  });
  if (!rows.length) return;
  const total = rows.reduce((sum, row) => sum + row[4], 0);
  box.innerHTML = "<h2>Review of your moves</h2>";
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>ply</th><th>you played</th><th>value</th><th>loss</th><th>best</th></tr></thead>";
  const body = document.createElement("tbody");
  for (const [ply, best, move, value, loss] of rows) {
    const row = document.createElement("tr");
    cell(row, String(ply));
    cell(row, move);
    cell(row, value.toFixed(4), "number");
    cell(row, loss > 1e-9 ? loss.toFixed(4) : "best", "number loss");
    cell(row, loss > 1e-9 ? best : "");
    body.appendChild(row);
  }
  table.appendChild(body);
  box.appendChild(table);
  const sum = document.createElement("p");
  sum.textContent = `Total loss ${total.toFixed(4)} over ${rows.length} moves.`;
  box.appendChild(sum);
}

function engineSeatOf(answer) {
  const index = state.node.players.findIndex((name) => name.toLowerCase() === String(answer.mover).toLowerCase());
  return index >= 0 && state.seats[index] === "engine";
}

function summary(node) {
  // Whose turn and how much may be played (the moves themselves are ranked beside it).
  if (node.kind === "decision" && node.seat && node.seat !== node.mover) return `${node.mover} to move`;
  if (node.kind === "decision") return `${node.mover} to move · ${node.moves.length} legal moves`;
  if (node.kind === "chance") return `Chance decides · ${node.outcome_count} outcomes`;
  if (node.kind === "simultaneous") {
    const choosing = node.players.map((name, index) => [name, (node.choices[index] || []).length])
      .filter(([, count]) => count > 0).map(([name, count]) => `${name} (${count} choices)`);
    return "Players choose at once: " + choosing.join(", ");
  }
  return node.text || "";
}

function showBoard(node) {
  // The game's own drawing of the position (dice, cards, scores: /api/position's board_svg), as the
  // seat shown sees it; a game that draws none shows the position string's fields, one box each.
  const drawing = $("board-drawing");
  drawing.innerHTML = node.board_svg || "";
  drawing.hidden = !node.board_svg;
  const box = $("fields");
  box.innerHTML = "";
  box.hidden = Boolean(node.board_svg);
  if (node.board_svg) return;
  for (const field of (node.seat ? node.view : node.position).split(" ").filter(Boolean)) {
    const part = document.createElement("span");
    part.className = "field";
    part.textContent = field.replace(/([,/])/g, "$1\u200b");
    box.appendChild(part);
  }
}

function showLine() {
  const line = $("line");
  line.innerHTML = "";
  const start = document.createElement("a");
  start.textContent = "start";
  start.href = "#";
  start.onclick = (event) => { event.preventDefault(); guarded(() => go(0)); };
  if (state.cursor === 0) start.className = "current";
  line.appendChild(start);
  state.moves.forEach((move, index) => {
    const link = document.createElement("a");
    link.href = "#";
    link.textContent = move;
    if (index + 1 === state.cursor) link.className = "current";
    link.onclick = (event) => { event.preventDefault(); guarded(() => go(index + 1)); };
    line.appendChild(document.createTextNode(" "));
    line.appendChild(link);
  });
  $("back").disabled = state.cursor === 0;
  $("forward").disabled = state.cursor >= state.moves.length;
}

function showChance(node) {
  const panel = $("chance");
  panel.hidden = node.kind !== "chance";
  const list = $("outcomes");
  list.innerHTML = "";
  if (node.kind !== "chance") return;
  for (const outcome of node.outcomes || []) {
    const button = document.createElement("button");
    button.className = "outcome";
    button.textContent = `${outcome.outcome} (${(100 * outcome.probability).toFixed(1)}%)`;
    button.onclick = () => guarded(() => play({ move: outcome.outcome }));
    list.appendChild(button);
  }
  if (!(node.outcomes || []).length) list.textContent = `${node.outcome_count} outcomes: too many to list; roll.`;
}

// ----- the analysis -------------------------------------------------------------------------------
function clearAnalysis() {
  for (const id of ["moves-area", "method", "pv", "notes", "meaning"]) $(id).innerHTML = "";
}

async function analyse() {
  const node = state.node;
  if (!node || (node.kind !== "decision" && node.kind !== "simultaneous")) return;
  const position = node.position;
  // Seats hidden from each other: the mover's analysis of what the mover sees (the engine's own
  // view for its move, kept from you; yours for you, as the review then judges it).
  const hiding = Boolean(viewSeat()) && node.kind === "decision";
  const secret = hiding && engineSeat(node.mover);
  const time = $("time").value;
  const limits = $("exact").checked ? { exact: 1 } : time ? { time } : { depth: $("depth").value };
  const answer = await watched(job, $("progress"), $("cancel"), "thinking...",
    () => api("best", { position, job, seat: hiding ? node.mover : "", ...limits }));
  if (state.node && state.node.position === position) showAnalysis(answer, secret);
}

async function watched(id, line, cancel, start, work) {
  // Long work under job ``id``: its progress polled into ``line`` while it runs, ``cancel`` enabled.
  cancel.disabled = false;
  line.textContent = start;
  const began = Date.now();
  const timer = setInterval(async () => {
    try {
      const answer = await api("progress", { job: id });
      const seconds = `${((Date.now() - began) / 1000).toFixed(0)} s`;
      if (answer.running || answer.waiting) line.textContent = `${answer.progress || start} · ${seconds}`;
    } catch (ignored) { /* the next poll tries again */ }
  }, 500);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    cancel.disabled = true;
    line.textContent = "";
  }
}

function showAnalysis(answer, secret) {
  state.analysis = answer;
  state.analyses[state.cursor] = answer;
  clearAnalysis();
  if (secret) {  // the engine's seat, hidden from yours: its choice is played, its view not shown
    $("notes").textContent = "The engine chooses from what its seat sees; tick all-seeing to look at its analysis.";
    return;
  }
  $("meaning").textContent = answer.value_meaning ? `value: ${answer.value_meaning}` : "";
  const area = $("moves-area");
  if (Array.isArray(answer.players)) {  // players choosing at once: each one's choices and mixed strategy
    for (const player of answer.players) area.appendChild(choiceTable(player));
    if (state.node.kind === "simultaneous") area.appendChild(jointPicker(answer.players));
  } else {
    area.appendChild(moveTable(answer.moves || [], answer.mover));
  }
  $("method").textContent = [answer.method, answer.depth ? `depth ${answer.depth}` : "",
    answer.nodes ? `${answer.nodes.toLocaleString()} nodes` : "", answer.time !== undefined ? `${answer.time} s` : ""]
    .filter(Boolean).join(" · ");
  $("pv").textContent = (answer.pv && answer.pv.length) ? "Principal line: " + answer.pv.join(" ") : "";
  $("notes").textContent = [answer.hidden_information, ...(answer.notes || []), ...(answer.assumptions || []).map((text) => "Assumed: " + text)].filter(Boolean).join(" · ");
}

function bounds(values) {
  const low = Math.min(...values, 0);
  const high = Math.max(...values, 1);
  return [low, high > low ? high : low + 1];
}

function bar(value, low, high, kind) {
  const outer = document.createElement("div");
  outer.className = "bar " + (kind || "");
  const inner = document.createElement("div");
  inner.style.width = `${Math.max(0, Math.min(1, (value - low) / (high - low))) * 100}%`;
  outer.appendChild(inner);
  return outer;
}

function choicesOf(player) {  // a player's ranked options in an answer (``moves``, as ``best --json`` gives them)
  return player ? (player.moves || player.choices || []) : [];
}

function lossText(move, index) {  // as the command line prints a loss: never negative, ties said
  if (index === 0) return "";
  return move.tied ? "(tied)" : Math.max(0, move.loss || 0).toFixed(4);
}

function cell(row, content, className) {
  const td = document.createElement("td");
  if (content instanceof Node) td.appendChild(content); else td.textContent = content;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function moveTable(moves, mover) {
  const table = document.createElement("table");
  table.id = "moves";
  table.innerHTML = `<thead><tr><th>#</th><th>move${mover ? " (" + mover + ")" : ""}</th><th>value</th><th></th><th>loss</th><th></th></tr></thead>`;
  const body = document.createElement("tbody");
  const [low, high] = bounds(moves.map((move) => move.value));
  const worst = Math.max(...moves.map((move) => move.loss || 0), 1e-9);
  moves.forEach((move, index) => {
    const row = document.createElement("tr");
    const button = document.createElement("button");
    button.className = "move";
    button.textContent = move.move;
    button.title = "play " + move.move;
    button.onclick = () => guarded(() => play({ move: move.move }));
    cell(row, String(index + 1));
    cell(row, button);
    cell(row, move.value.toFixed(4), "number");
    cell(row, bar(move.value, low, high, "value"));
    cell(row, lossText(move, index), "number loss");
    cell(row, index === 0 ? "" : bar(move.loss, 0, worst, "loss"));
    body.appendChild(row);
  });
  table.appendChild(body);
  return table;
}

function choiceTable(player) {
  const wrapper = document.createElement("div");
  const title = document.createElement("h3");
  title.textContent = `${player.player}: value ${Number(player.value).toFixed(4)}`;
  wrapper.appendChild(title);
  const table = document.createElement("table");
  table.className = "choices";
  table.innerHTML = "<thead><tr><th>choice</th><th>value</th><th>loss</th><th>probability</th><th></th></tr></thead>";
  const body = document.createElement("tbody");
  choicesOf(player).forEach((choice, index) => {
    const row = document.createElement("tr");
    cell(row, choice.choice ?? choice.move);
    cell(row, choice.value.toFixed(4), "number");
    cell(row, lossText(choice, index), "number loss");
    cell(row, (100 * choice.probability).toFixed(1) + "%", "number");
    cell(row, bar(choice.probability, 0, 1, "value"));
    body.appendChild(row);
  });
  table.appendChild(body);
  wrapper.appendChild(table);
  return wrapper;
}

function jointPicker(players) {
  // One choice per choosing player (by default each one's likeliest), played together.
  const form = document.createElement("div");
  form.className = "joint";
  const selects = [];
  const choosing = (state.node.choices || []).map((own, index) => ({ own, index })).filter((item) => item.own.length);
  const engines = [];  // the engine's seats choose at the click, drawn from their mixed strategies
  for (const { own, index } of choosing) {
    const name = state.node.players[index];
    if (engineSeat(name)) {
      const answer = players.find((player) => player.player === name);
      engines.push({ at: selects.length, pick: () => (answer ? sample(choicesOf(answer)) : own[0]) });
      const label = document.createElement("span");
      label.className = "muted";
      label.textContent = `${name}: the engine's choice`;
      form.appendChild(label);
      selects.push(null);
      continue;
    }
    const select = document.createElement("select");
    select.className = "joint-choice";
    const answer = players.find((player) => player.player === state.node.players[index]);
    const ranked = answer ? [...choicesOf(answer)].sort((a, b) => b.probability - a.probability) : [];
    const likeliest = ranked.length ? (ranked[0].choice ?? ranked[0].move) : own[0];
    for (const name of own) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      option.selected = name === likeliest;
      select.appendChild(option);
    }
    const label = document.createElement("label");
    label.textContent = state.node.players[index] + " ";
    label.appendChild(select);
    form.appendChild(label);
    selects.push(select);
  }
  const button = document.createElement("button");
  button.id = "play-joint";
  button.textContent = "Play these choices";
  button.onclick = () => guarded(() => play({
    move: selects.map((select, at) => (select ? select.value : engines.find((e) => e.at === at).pick())).join(" | "),
  }));
  form.appendChild(button);
  return form;
}

// ----- tree, tables, studies --------------------------------------------------------------------------
async function drawTree() {
  $("tree").textContent = "drawing...";
  try {
    const svg = await api("tree", { position: shownPosition(), depth: $("tree-depth").value,
      top: $("tree-top").value, job: job + "-tree" }, "text");
    $("tree").innerHTML = svg.slice(svg.indexOf("<svg"));
  } catch (error) {
    $("tree").textContent = "";
    throw error;
  }
}

async function probe(build) {
  const answer = await watched(job + "-probe", $("build-progress"), $("build-cancel"),
    build ? "building what this position needs..." : "probing...",
    () => api("probe", { position: shownPosition(), job: job + "-probe", build: build ? 1 : "" }));
  $("probe").textContent = JSON.stringify(answer, null, 2);
}

function showBuildForm() {
  // The build's parameters as the game's stored values declare them (tablebase build GAME's options).
  const form = $("build-form");
  form.innerHTML = "";
  for (const parameter of gameInfo().build_parameters || []) {
    const label = document.createElement("label");
    label.title = `${parameter.help} (${parameter.allowed})`;
    label.textContent = parameter.name + " ";
    const input = document.createElement("input");
    input.className = "build-parameter";
    input.name = parameter.name;
    input.size = 8;
    input.placeholder = parameter.default ?? "";
    label.appendChild(input);
    form.appendChild(label);
  }
}

async function build() {
  const values = {};
  for (const input of document.querySelectorAll(".build-parameter")) if (input.value) values[input.name] = input.value;
  $("build-lines").textContent = "";
  const answer = await watched(job + "-build", $("build-progress"), $("build-cancel"), "building...",
    () => api("build", { job: job + "-build", ...values }));
  $("build-lines").textContent = answer.lines.join("\n");
}

function cancelBuild() {
  for (const id of [job + "-build", job + "-probe"]) fetch(`/api/cancel?job=${id}`, { method: "POST" });
  $("build-lines").textContent = "cancelled";
}

async function loadStudies() {
  const box = $("studies");
  if (box.dataset.loaded) return;
  box.dataset.loaded = "1";
  const folders = await fetch("/api/studies").then((response) => response.json());
  for (const folder of folders) {
    const section = document.createElement("section");
    section.className = "study";
    const title = document.createElement("h3");
    title.textContent = folder.folder;
    section.appendChild(title);
    if (folder.readme) {
      const readme = document.createElement("details");
      readme.innerHTML = "<summary>README</summary>";
      const text = document.createElement("pre");
      text.textContent = folder.readme;
      readme.appendChild(text);
      section.appendChild(readme);
    }
    for (const picture of folder.pictures) {
      const link = document.createElement("a");
      link.href = "/results/" + picture;
      link.target = "_blank";
      const image = document.createElement("img");
      image.loading = "lazy";
      image.src = "/results/" + picture;
      image.alt = image.title = picture;
      link.appendChild(image);
      section.appendChild(link);
      if (folder.values && folder.values[picture]) section.appendChild(valuesButton(folder.values[picture]));
    }
    box.appendChild(section);
  }
}

function parseCsv(text) {
  // Rows of fields; a field may be quoted ("d4,d6") with "" for a quote inside.
  const rows = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line) continue;
    const fields = [];
    let field = "", quoted = false;
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (quoted && char === '"' && line[i + 1] === '"') { field += '"'; i++; }
      else if (char === '"') quoted = !quoted;
      else if (char === "," && !quoted) { fields.push(field); field = ""; }
      else field += char;
    }
    fields.push(field);
    rows.push(fields);
  }
  return rows;
}

function shade(t) {
  // Red (low) through white to blue (high), the trees' scale.
  const stops = [[224, 120, 90], [248, 205, 184], [247, 247, 247], [198, 220, 239], [93, 159, 208]];
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2), f = x - i;
  return `rgb(${stops[i].map((c, k) => Math.round(c * (1 - f) + stops[i + 1][k] * f)).join(",")})`;
}

function valuesButton(csv) {
  // A study's numbers as a shaded table: the value under the pointer is read out beside it.
  const wrapper = document.createElement("div");
  const button = document.createElement("button");
  button.textContent = "values under the pointer";
  const readout = document.createElement("span");
  readout.className = "readout";
  button.onclick = () => guarded(async () => {
    const response = await fetch("/results/" + csv);
    if (!response.ok) throw new Error(`cannot read ${csv}`);
    const rows = parseCsv(await response.text());
    const numbers = rows.slice(1).flatMap((row) => row.slice(1).map(Number)).filter((v) => !Number.isNaN(v));
    const low = Math.min(...numbers), high = Math.max(...numbers);
    const table = document.createElement("table");
    table.className = "heat";
    rows.forEach((row, r) => {
      const line = document.createElement("tr");
      row.forEach((text, c) => {
        const td = document.createElement(r === 0 || c === 0 ? "th" : "td");
        td.textContent = text;
        const value = Number(text);
        if (r > 0 && c > 0 && text !== "" && !Number.isNaN(value)) {
          td.style.background = shade(high > low ? (value - low) / (high - low) : 0.5);
          td.textContent = value.toFixed(3);
        }
        if (r > 0 && c > 0) {
          td.title = `${row[0]} × ${rows[0][c]}: ${text}`;
          td.onmouseenter = () => { readout.textContent = td.title; };
        }
        line.appendChild(td);
      });
      table.appendChild(line);
    });
    button.replaceWith(table);
  });
  wrapper.appendChild(button);
  wrapper.appendChild(readout);
  return wrapper;
}

// ----- wiring ---------------------------------------------------------------------------------
async function loadExample() {
  await startLine(gameInfo().example || (await api("rules", {})).example);
}

window.addEventListener("DOMContentLoaded", () => guarded(async () => {
  await loadGames();
  const params = new URLSearchParams(location.search);
  $("rules").value = params.getAll("rule").join(" ");
  if (params.get("depth")) $("depth").value = params.get("depth");  // a link may say how deep to look
  if (params.get("time")) $("time").value = params.get("time");
  setGame(params.get("game") || state.games[0].game);
  $("game").onchange = () => guarded(async () => { setGame($("game").value); await loadExample(); });
  $("rules").onchange = () => guarded(async () => { setGame(state.game); await startLine(state.line[state.cursor]); });
  $("show").onclick = () => guarded(() => startLine($("position-input").value));
  $("position-input").onkeydown = (event) => { if (event.key === "Enter") guarded(() => startLine($("position-input").value)); };
  $("example").onclick = () => guarded(loadExample);
  $("analyse").onclick = () => guarded(analyse);
  $("cancel").onclick = () => fetch(`/api/cancel?job=${job}`, { method: "POST" });
  $("roll").onclick = () => guarded(() => play({ roll: 1, seed: Math.floor(Math.random() * 2 ** 31) }));
  $("engine-move").onclick = () => guarded(engineTurn);
  $("back").onclick = () => guarded(() => go(state.cursor - 1));
  $("forward").onclick = () => guarded(() => go(state.cursor + 1));
  $("tree-button").onclick = () => guarded(drawTree);
  $("probe-button").onclick = () => guarded(() => probe(false));
  $("probe-build").onclick = () => guarded(() => probe(true));
  $("build-button").onclick = () => guarded(build);
  $("build-cancel").onclick = cancelBuild;
  $("all-seeing").onchange = () => guarded(() => go(state.cursor));
  $("copy-link").onclick = () => navigator.clipboard && navigator.clipboard.writeText(location.href);
  $("studies-panel").addEventListener("toggle", () => guarded(loadStudies));
  const position = params.get("position");
  if (position) await startLine(sessionStorage.getItem(HIDDEN_KEY + position) || position); else await loadExample();
}));
