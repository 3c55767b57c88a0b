// The replay board: one game, one position at a time, as one viewer sees it.
//
// A position's picture is fetched once per viewer and kept (cache.js); the
// positions next to the one on show are fetched ahead, so a step redraws
// from memory. A jump to a position not yet fetched asks the front end once;
// a newer request makes an older one moot (its answer is kept, not drawn).

import { get } from "./api.js";
import { PositionCache } from "./cache.js";
import { MoveList } from "./movelist.js";

const AHEAD = 8; // positions fetched ahead in the direction of travel
const BEHIND = 3;
const PARALLEL = 3; // fetches ahead at once

export class Replay {
  constructor(elements, keyring, hooks) {
    this.el = elements;
    this.keyring = keyring;
    this.hooks = hooks; // onOpened(state), onRecords(), onDrawn(entry), onRefused(error), onLast()
    this.cache = new PositionCache();
    this.moves = new MoveList(elements.moveList, (position) => this.show(position, "list"));
    this.gameId = null;
    this.records = [];
    this.last = 0;
    this.position = null; // drawn
    this.wanted = null; // asked for
    this.direction = 1;
    this.inFlight = new Map(); // key -> promise
    this.queue = [];
    this.wantedController = null;
    this.loadedFor = null;
    this.base = 0; // a fork's positions continue its parent's numbering
    this.picture = elements.picture || elements.board;
    elements.slider.addEventListener("input", () => this.show(Number(elements.slider.value), "slider"));
  }

  key(position) {
    return `${this.gameId}|${this.keyring.viewerKey}|${position}`;
  }

  get finished() {
    return this.records.length > 0 && this.records[this.records.length - 1].kind === "finished";
  }

  // Open a game (or, when it is open already for this viewer, go to `at`).
  async open(gameId, at) {
    const viewerKey = this.keyring.viewerKey;
    if (this.gameId === gameId && this.loadedFor === viewerKey) {
      this.show(at ?? this.last, "url");
      return;
    }
    this.gameId = gameId;
    this.keyring.gameId = gameId;
    this.loadedFor = null;
    this.position = null;
    this.queue = [];
    this.picture.replaceChildren();
    this.el.board.classList.add("loading");
    this.base = 0;
    this.moves.inherit([], 0);
    const token = this.keyring.token;
    const path = `/api/games/${encodeURIComponent(gameId)}`;
    const current = () => this.gameId === gameId && this.keyring.viewerKey === viewerKey;
    // The board first, the move list when it comes: a long game's list takes
    // the service longer to write than one position.
    const records = get(`${path}/records`, token);
    records.catch(() => {}); // answered below, once the board is up
    const latest = () => get(`${path}/state`, token);
    const asked = at === null || at === undefined ? latest() : get(`${path}/state?at=${at}`, token);
    // A position beyond the end (an old link to a game taken back) opens the latest.
    const beyond = (error) =>
      error.status === 404 && error.reason === "no-such-position" ? latest() : Promise.reject(error);
    let state;
    try {
      state = await asked.catch(beyond);
    } catch (error) {
      if (current()) this.hooks.onRefused(error, "open");
      return;
    }
    if (!current()) return;
    this.loadedFor = viewerKey;
    this.keyring.learn(this.keyring.active, state.viewer);
    this.records = [];
    this.moves.reset([]);
    delete this.el.moveList.dataset.game;
    this.last = state.last_position;
    this.el.slider.max = String(this.last);
    this.cache.set(this.key(state.position), state);
    this.hooks.onOpened(state);
    this.show(state.position, "open");
    let list;
    try {
      list = await records;
    } catch (error) {
      if (current()) this.hooks.onRefused(error);
      return;
    }
    if (!current()) return;
    this.setRecords(list);
    this.moves.highlight(this.wanted);
    this.hooks.onRecords();
  }

  setRecords(records) {
    this.records = records;
    this.last = records.length ? records[records.length - 1].position : 0;
    this.moves.reset(records);
    this.el.moveList.dataset.game = this.gameId;
    this.el.slider.max = String(this.last);
    this.el.lastNumber.textContent = this.base + this.last;
  }

  // A fork: its positions are numbered on from its parent's, and its move
  // list starts with the parent's moves up to the branch point.
  setBase(base, inherited) {
    this.base = base;
    this.moves.inherit(inherited, base);
    this.el.lastNumber.textContent = base + this.last;
    if (this.position !== null) this.el.positionNumber.textContent = base + this.position;
  }

  // A position the page was given along with something else (the answer to
  // a move): kept, so showing it costs no fetch.
  keep(entry) {
    if (entry.game_id === this.gameId) this.cache.set(this.key(entry.position), entry);
  }

  // A record stored since the page loaded (from the live feed).
  addRecord(record) {
    if (record.position < this.records.length) return;
    if (record.position > this.records.length) {
      this.reload(); // a gap: read the list again
      return;
    }
    const atTip = this.wanted === this.last;
    this.records.push(record);
    this.last = record.position;
    this.moves.append(record);
    this.el.slider.max = String(this.last);
    this.el.lastNumber.textContent = this.base + this.last;
    if (record.kind === "finished") {
      // Once a game is over its whole record is public: read it again.
      this.reload(atTip);
      return;
    }
    this.hooks.onLast();
    if (atTip) this.show(this.last, "live");
  }

  // Read the records again and forget every fetched position of this game.
  async reload(toTip = false) {
    const gameId = this.gameId;
    const records = await get(`/api/games/${encodeURIComponent(gameId)}/records`, this.keyring.token);
    if (this.gameId !== gameId) return;
    this.cache.forget(`${gameId}|`);
    this.setRecords(records);
    this.hooks.onLast();
    this.position = null;
    this.show(toTip ? this.last : this.wanted ?? this.last, "reload");
  }

  step(delta) {
    const from = this.wanted ?? 0;
    this.show(Math.min(this.last, Math.max(0, from + delta)), "key");
  }

  // Show `position`: at once from memory, or once its picture arrives.
  show(position, source) {
    if (this.gameId === null) return;
    position = Math.min(this.last, Math.max(0, Math.trunc(position)));
    if (this.wanted !== null && position !== this.wanted) {
      this.direction = position > this.wanted ? 1 : -1;
    }
    this.wanted = position;
    this.el.slider.value = String(position);
    this.moves.highlight(position);
    const cached = this.cache.get(this.key(position));
    if (cached) {
      this.draw(cached, source, true);
      return;
    }
    this.el.board.classList.add("loading");
    if (this.wantedController) this.wantedController.abort();
    const controller = new AbortController();
    this.wantedController = controller;
    this.fetch(position, controller.signal).then(
      (entry) => {
        if (entry && this.wanted === position) this.draw(entry, source, false);
      },
      (error) => {
        if (error.name !== "AbortError") this.hooks.onRefused(error);
      },
    );
  }

  fetch(position, signal = undefined) {
    const key = this.key(position);
    if (this.inFlight.has(key)) return this.inFlight.get(key);
    const gameId = this.gameId;
    const promise = get(`/api/games/${encodeURIComponent(gameId)}/state?at=${position}`, this.keyring.token, signal)
      .then((entry) => {
        this.cache.set(key, entry);
        return entry;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  draw(entry, source, cached) {
    const board = this.el.board;
    const picture = this.picture;
    if (entry.svg) {
      picture.innerHTML = entry.svg;
      // A small picture keeps its own size; a large one fits the board.
      const svg = picture.firstElementChild;
      const width = Number(svg?.getAttribute("width"));
      if (width) svg.style.maxWidth = `${Math.round(width * 1.25)}px`;
    } else {
      const pre = document.createElement("pre");
      pre.className = "text-only";
      pre.textContent = entry.text;
      picture.replaceChildren(pre);
    }
    board.classList.remove("loading");
    board.dataset.position = entry.position;
    board.dataset.game = entry.game;
    this.position = entry.position;
    this.el.positionNumber.textContent = this.base + entry.position;
    this.el.lastNumber.textContent = this.base + this.last;
    this.el.textBoard.textContent = entry.text;
    this.hooks.onDrawn(entry, source);
    const detail = { position: entry.position, source, cached };
    window.dispatchEvent(new CustomEvent("gamelog:drawn", { detail }));
    this.prefetch(entry.position);
  }

  // Fetch the positions around `position`, the way of travel first.
  prefetch(position) {
    const wanted = [];
    const ahead = this.direction >= 0 ? AHEAD : BEHIND;
    const behind = this.direction >= 0 ? BEHIND : AHEAD;
    for (let i = 1; i <= Math.max(ahead, behind); i += 1) {
      if (i <= ahead && position + this.direction * i >= 0 && position + this.direction * i <= this.last) {
        wanted.push(position + this.direction * i);
      }
      if (i <= behind && position - this.direction * i >= 0 && position - this.direction * i <= this.last) {
        wanted.push(position - this.direction * i);
      }
    }
    this.queue = wanted.filter((p) => !this.cache.has(this.key(p)));
    this.pump();
  }

  pump() {
    while (this.inFlight.size < PARALLEL && this.queue.length) {
      const position = this.queue.shift();
      if (this.cache.has(this.key(position))) continue;
      this.fetch(position).then(
        () => this.pump(),
        () => {}, // a position that cannot be fetched ahead is asked again when shown
      );
    }
  }

  // The viewer changed: what every position shows may differ.
  async changeViewer() {
    const gameId = this.gameId;
    if (gameId === null) return;
    const at = this.wanted;
    this.gameId = null;
    await this.open(gameId, at);
  }

  close() {
    this.gameId = null;
    this.loadedFor = null;
    this.queue = [];
  }
}

