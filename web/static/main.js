// The page: which view shows, the viewer, the keys, the URL, the live feed.

import { get, post } from "./api.js";
import { GameList } from "./games.js";
import { Keyring } from "./keys.js";
import { LiveFeed } from "./live.js";
import { Replay } from "./replay.js";
import { gameHash, parseHash } from "./route.js";
import { showEvent, showEvents } from "./tournaments.js";
import { renderTree } from "./tree.js";

const $ = (id) => document.getElementById(id);

const keyring = new Keyring($("viewer-select"));
const titles = new Map();
let view = null;
let drawn = null; // the position entry on show

// -- messages ---------------------------------------------------------------------------

let toastTimer = null;
function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 6000);
}

// -- the replay board -------------------------------------------------------------------

const live = new LiveFeed({
  onRecord: (record) => replay.addRecord(record),
  onEnd: () => showLiveState("off"),
  onState: (state, why) => showLiveState(state, why),
});

function showLiveState(state, why = "") {
  const badge = $("live-badge");
  badge.hidden = state === "off";
  badge.classList.toggle("waiting", state === "waiting");
  badge.textContent = state === "waiting" ? "reconnecting" : "live";
  badge.title = why;
}

const replay = new Replay(
  {
    board: $("board"),
    slider: $("slider"),
    positionNumber: $("position-number"),
    lastNumber: $("last-number"),
    moveList: $("move-list"),
    textBoard: $("text-board"),
  },
  keyring,
  {
    onDrawn: (entry) => {
      drawn = entry;
      describe(entry);
      scheduleUrl();
    },
    onRefused: (error) => refused(error),
    onOpened: (state) => opened(state),
    onRecords: () => recordsReady(),
    onLast: () => {
      if (drawn) describe(drawn);
    },
  },
);

function seatWord(viewer) {
  if (!viewer) return "spectator";
  return viewer === "#arbiter" ? "arbiter" : viewer;
}

function resultWords(result) {
  const ranking = result.ranking || [];
  const scores = result.scores || {};
  const places = [];
  let place = 1;
  for (const group of ranking) {
    const names = group.map((s) => (s in scores ? `${s} ${scores[s]}` : s)).join(", ");
    places.push(`${place}. ${names}`);
    place += group.length;
  }
  return places.join(" · ");
}

function describe(entry) {
  const parts = [];
  if (entry.finished && entry.result) parts.push(`Finished: ${resultWords(entry.result)}`);
  else if (entry.to_act.length) parts.push(`to act: ${entry.to_act.map(seatWord).join(", ")}`);
  parts.push(`ply ${entry.ply}`);
  if (entry.pending_undo) {
    parts.push(`take-back asked by ${seatWord(entry.pending_undo.seat)} to position ${entry.pending_undo.to_position}`);
  }
  $("status-line").textContent = parts.join(" · ");
  updateFork(entry);
}

function updateFork(entry) {
  const button = $("fork-button");
  const arbiter = entry.viewer === "#arbiter";
  const allowed = (replay.finished || arbiter) && !entry.finished;
  button.disabled = !allowed;
  button.textContent = `Fork from position ${entry.position}`;
  let note = "";
  if (entry.finished) note = "The game is over at this position: step back to fork.";
  else if (!replay.finished && !arbiter) note = "A running game is forked by its arbiter: use the arbiter's token.";
  $("fork-note").textContent = note;
}

function opened(state) {
  const title = titles.get(state.game) || state.game;
  $("game-title").textContent = title;
  $("game-id").textContent = state.game_id.slice(0, 8);
  $("game-id").title = state.game_id;
  $("viewer-badge").textContent = `as ${seatWord(state.viewer)}`;
  const tags = $("game-tags");
  tags.replaceChildren(
    ...Object.entries(state.tags).map(([key, value]) => {
      const chip = document.createElement("span");
      chip.className = "tag";
      chip.textContent = `${key}: ${value}`;
      return chip;
    }),
  );
  document.title = `${title} · ${state.game_id.slice(0, 8)} · gamelog`;
}

// The move list is in: follow the game if it runs, draw its branches.
function recordsReady() {
  if (drawn) describe(drawn);
  if (replay.finished) {
    live.stop();
    showLiveState("off");
  } else {
    live.start(replay.gameId, keyring.token, replay.last + 1);
  }
  loadTree();
}

async function loadTree() {
  const gameId = replay.gameId;
  try {
    const tree = await get(`/api/games/${encodeURIComponent(gameId)}/tree`);
    if (replay.gameId !== gameId) return;
    const children = renderTree($("tree"), tree, gameId);
    replay.moves.branches(children);
  } catch (error) {
    $("tree").textContent = error.message;
  }
}

function refused(error) {
  toast(error.message);
  const ownToken = error.status === 401 || error.status === 403;
  if (ownToken && keyring.active) {
    // This token is not this game's: fall back to what anyone may see.
    keyring.use(null);
    viewerChanged();
  }
}

function viewerChanged() {
  if (view === "game") {
    live.stop();
    replay.changeViewer();
    scheduleUrl();
  }
}

// The URL follows the position, a moment after the last step (a browser
// limits how often a page may rewrite its address).
let urlTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    if (view !== "game" || replay.gameId === null || replay.wanted === null) return;
    const token = keyring.active?.fromFragment ? keyring.token : null;
    history.replaceState(null, "", gameHash(replay.gameId, replay.wanted, token));
  }, 200);
}

// -- keys and buttons -------------------------------------------------------------------

const STEPS = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };

document.addEventListener("keydown", (event) => {
  if (view !== "game" || event.ctrlKey || event.altKey || event.metaKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, dialog[open], summary")) return;
  if (event.key in STEPS) replay.step(STEPS[event.key]);
  else if (event.key === "Home") replay.show(0, "key");
  else if (event.key === "End") replay.show(replay.last, "key");
  else return;
  event.preventDefault();
});

$("first-button").addEventListener("click", () => replay.show(0, "button"));
$("prev-button").addEventListener("click", () => replay.step(-1));
$("next-button").addEventListener("click", () => replay.step(1));
$("last-button").addEventListener("click", () => replay.show(replay.last, "button"));

// -- the viewer -------------------------------------------------------------------------

$("viewer-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("token-input");
  const token = input.value.trim();
  input.value = "";
  if (!token) return;
  keyring.use(keyring.add(token));
  viewerChanged();
});

$("viewer-select").addEventListener("change", (event) => {
  keyring.use(keyring.byId(event.target.value));
  viewerChanged();
});

// -- forking ----------------------------------------------------------------------------

$("fork-button").addEventListener("click", async () => {
  const at = replay.position;
  const gameId = replay.gameId;
  let created;
  try {
    created = await post(`/api/games/${encodeURIComponent(gameId)}/fork`, { at }, keyring.token);
  } catch (error) {
    toast(error.message);
    return;
  }
  $("fork-id").textContent = created.game_id;
  $("fork-at").textContent = at;
  const rows = Object.entries(created.seat_tokens).map(([seat, token]) => [seat, token]);
  rows.push(["arbiter", created.arbiter_token]);
  $("fork-tokens").replaceChildren(
    ...rows.map(([who, token]) => {
      const tr = document.createElement("tr");
      const name = document.createElement("th");
      name.textContent = who;
      const value = document.createElement("td");
      value.append(Object.assign(document.createElement("code"), { textContent: token }));
      tr.append(name, value);
      return tr;
    }),
  );
  const dialog = $("fork-dialog");
  dialog.dataset.game = created.game_id;
  dialog.dataset.token = created.arbiter_token;
  dialog.showModal();
  loadTree();
});

$("fork-dialog").addEventListener("close", () => {
  const dialog = $("fork-dialog");
  const gameId = dialog.dataset.game;
  const token = dialog.dataset.token;
  delete dialog.dataset.token;
  $("fork-tokens").replaceChildren(); // the tokens leave the page with the dialog
  if (dialog.returnValue === "open" && gameId) {
    keyring.use(keyring.add(token));
    location.hash = gameHash(gameId);
  }
});

// -- views ------------------------------------------------------------------------------

const games = new GameList(
  {
    form: $("filter-form"),
    body: $("games-body"),
    summary: $("games-summary"),
    older: $("games-older"),
    events: $("event-names"),
    rounds: $("round-names"),
  },
  titles,
);

function showView(name) {
  view = name;
  for (const section of document.querySelectorAll("main > .view")) {
    section.hidden = section.id !== `view-${name}`;
  }
  for (const link of document.querySelectorAll("nav a")) {
    const here = link.dataset.view === name || (name === "event" && link.dataset.view === "tournaments");
    link.classList.toggle("here", here);
  }
}

async function route() {
  const where = parseHash(location.hash);
  const token = where.params.get("token");
  let changed = false;
  if (token) {
    const entry = keyring.add(token, true);
    changed = keyring.active !== entry;
    if (changed) keyring.use(entry);
  }
  if (where.view !== "game") {
    live.stop();
    replay.close();
    drawn = null;
  }
  showView(where.view);
  if (where.view === "game") {
    if (replay.gameId !== where.game) {
      live.stop();
      drawn = null;
    }
    if (changed && replay.gameId === where.game) await replay.changeViewer();
    else await replay.open(where.game, where.at);
  } else if (where.view === "games") {
    document.title = "Games · gamelog";
    await games.show(where.params);
  } else if (where.view === "tournaments") {
    document.title = "Tournaments · gamelog";
    await showEvents($("events"));
  } else if (where.view === "event") {
    document.title = `${where.params.get("name")} · gamelog`;
    await showEvent($("event"), where.params.get("name") || "");
  }
}

async function start() {
  keyring.render();
  try {
    const types = await get("/api/game-types");
    for (const type of types) titles.set(type.name, type.title || type.name);
    games.setGameTypes(types);
  } catch (error) {
    toast(error.message);
  }
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "true";
}

start();
