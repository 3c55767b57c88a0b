// The page: which view shows, the viewer, the keys, the URL, the live feed.

import { get } from "./api.js";
import { Branches } from "./branches.js";
import { GameList } from "./games.js";
import { Keyring } from "./keys.js";
import { LiveFeed } from "./live.js";
import { NewGame } from "./newgame.js";
import { Replay } from "./replay.js";
import { gameHash, parseHash } from "./route.js";
import { Table } from "./table.js";
import { TakeBack } from "./takeback.js";
import { showEvent, showEvents } from "./tournaments.js";
import { Zoom } from "./zoom.js";

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

// New records redraw the table too (debounced: a move's records come in a burst).
let tableTimer = null;
function tableChanged() {
  clearTimeout(tableTimer);
  tableTimer = setTimeout(() => {
    if (table.position === null || table.position < replay.last) table.refresh();
  }, 30);
}

const live = new LiveFeed({
  onRecord: (record) => {
    replay.addRecord(record);
    tableChanged();
  },
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
    picture: $("board-view"),
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
      table.markBoard();
    },
    onRefused: (error, when) => refused(error, when),
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
  branches.update(entry);
}

const branches = new Branches(
  {
    tree: $("tree"),
    forkButton: $("fork-button"),
    forkNote: $("fork-note"),
    dialog: $("fork-dialog"),
    forkId: $("fork-id"),
    forkAt: $("fork-at"),
    forkLinks: $("fork-links"),
  },
  keyring,
  replay,
  (message) => toast(message),
);

const table = new Table({ panel: $("table-panel"), board: $("board") }, keyring, {
  say: (message) => toast(message),
  onPlayed: (answer) => {
    replay.keep(answer.state);
    for (const record of answer.records) replay.addRecord(record);
  },
  onTable: (now) => takeBack.render(now, replay.records[0]?.undo_policy),
});

const takeBack = new TakeBack($("takeback-panel"), keyring, {
  records: () => replay.records,
  shown: () => replay.position,
  say: (message) => toast(message),
  changed: () => table.refresh(),
});

const zoom = new Zoom($("board"), $("board-view"), $("zoom-level"));
$("zoom-in").addEventListener("click", () => zoom.zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoom.zoomBy(0.8));
$("zoom-fit").addEventListener("click", () => zoom.reset());

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
  branches.load();
  table.open(replay.gameId);
}

// A game that cannot be opened leaves nothing of the game before on show.
function clearGame() {
  drawn = null;
  $("game-title").textContent = "No such game";
  $("game-id").textContent = "";
  $("game-tags").replaceChildren();
  $("move-list").replaceChildren();
  $("board-view").replaceChildren();
  $("tree").replaceChildren();
  $("status-line").textContent = "";
  $("position-number").textContent = "0";
  $("last-number").textContent = "0";
  $("viewer-badge").textContent = "";
  table.close();
  takeBack.render(null);
}

function refused(error, when = "") {
  toast(error.message);
  if (when === "open" && (error.status === 404 || error.status === 400)) clearGame();
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
    table.close();
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

const newGame = new NewGame($("view-new"));

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
    table.close();
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
  } else if (where.view === "new") {
    document.title = "New game · gamelog";
    newGame.show();
  } else if (where.view === "tournaments") {
    document.title = "Tournaments · gamelog";
    await showEvents($("events"));
  } else if (where.view === "event") {
    document.title = `${where.params.get("name") || "Tournament"} · gamelog`;
    await showEvent($("event"), where.params.get("name") || "", where.params.get("tournament") || "");
  }
}

async function start() {
  keyring.render();
  try {
    const types = await get("/api/game-types");
    for (const type of types) titles.set(type.name, type.title || type.name);
    games.setGameTypes(types);
    table.setSchemas(types);
    newGame.setGameTypes(types);
  } catch (error) {
    toast(error.message);
  }
  window.addEventListener("hashchange", route);
  await route();
  document.body.dataset.ready = "true";
}

start();
