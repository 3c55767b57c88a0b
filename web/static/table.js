// The table: what the seat on show may do now, and sending it.
//
// With a seat's token the panel shows that seat's legal moves through the
// game's picker (pickers/), the list of every legal move, and, where the
// service lists only a sample, a form built from the move's schema. A move
// goes out with the position the page last saw (`at`) and a request id, so
// a retry never plays twice; when the game moved on meanwhile the panel is
// redrawn, says so, and keeps whatever the seat had chosen that still fits.
// The arbiter's page lists any seat's moves and plays them on the seat's behalf.

import { h } from "./dom.js";
import { boardPick, choose, describe, keepFitting, offer } from "./pickers/engine.js";
import { pickerFor } from "./pickers/index.js";
import { moveFrom, variantsOf } from "./pickers/schema.js";
import { Moves } from "./transport.js";

export class Table {
  constructor(elements, keyring, hooks) {
    this.el = elements; // panel, board
    this.keyring = keyring;
    this.hooks = hooks; // onPlayed(answer), say(message)
    this.moves = new Moves();
    this.gameId = null;
    this.game = null;
    this.schemas = new Map(); // game -> move schema
    this.now = null; // the last answer of /table
    this.picked = {};
    this.seat = ""; // the arbiter's chosen seat
    this.formValues = {};
    this.sending = false;
    this.loading = null;
    elements.board.addEventListener("click", (event) => this.boardClicked(event));
  }

  setSchemas(types) {
    for (const type of types) this.schemas.set(type.name, type.schemas?.move || null);
  }

  open(gameId) {
    if (gameId !== this.gameId) {
      this.picked = {};
      this.seat = "";
      this.formValues = {};
      this.now = null;
    }
    this.gameId = gameId;
    this.refresh();
  }

  close() {
    this.gameId = null;
    this.now = null;
    this.el.panel.hidden = true;
  }

  // Read what the viewer may do now; redraw the panel.
  async refresh(note = "") {
    const gameId = this.gameId;
    if (!gameId) return;
    const token = this.keyring.token;
    if (!token) {
      this.now = null;
      this.el.panel.hidden = true;
      this.hooks.onTable?.(null);
      return;
    }
    const loading = this.moves.table(gameId, token, this.seat);
    this.loading = loading;
    let now;
    try {
      now = await loading;
    } catch (error) {
      if (this.loading === loading) this.hooks.say(error.message);
      return;
    }
    if (this.loading !== loading || this.gameId !== gameId) return;
    this.show(now, note);
  }

  // Draw the table as the front end answered it.
  show(now, note = "") {
    this.loading = null;
    this.now = now;
    this.game = now.game;
    if (now.legal) this.picked = keepFitting(pickerFor(now.game), now.legal, this.picked);
    this.render(note);
    this.hooks.onTable?.(now);
  }

  get position() {
    return this.now ? this.now.position : null;
  }

  render(note = "") {
    const now = this.now;
    const panel = this.el.panel;
    panel.hidden = false;
    panel.dataset.position = now.position;
    const parts = [h("h2", { id: "table-heading" }, this.heading(now))];
    if (note) parts.push(h("p", { class: "note", role: "status" }, note));
    if (now.viewer === "#arbiter") parts.push(this.seatChooser(now));
    if (now.legal) parts.push(...this.picker(now));
    panel.replaceChildren(...parts);
    panel.dataset.ready = String(now.position);
    this.markBoard();
  }

  heading(now) {
    if (now.finished) return "The game is over";
    const me = now.viewer === "#arbiter" ? this.seat || "#arbiter" : now.viewer;
    const others = now.to_act.filter((seat) => seat !== me).map((s) => (s === "#arbiter" ? "the arbiter" : s));
    if (now.legal) return now.viewer === "#arbiter" && this.seat ? `${this.seat}'s move` : "Your move";
    return others.length ? `Waiting for ${others.join(", ")}` : "Nothing to do now";
  }

  seatChooser(now) {
    const seats = now.view?.seats || [];
    const select = h(
      "select",
      { id: "arbiter-seat", onchange: (event) => ((this.seat = event.target.value), (this.picked = {}), this.refresh()) },
      h("option", { value: "" }, "the arbiter's own moves"),
      seats.map((seat) => h("option", { value: seat, selected: seat === this.seat }, `${seat}'s moves`)),
    );
    return h("p", { class: "arbiter-seat" }, h("label", { for: "arbiter-seat" }, "List "), select);
  }

  picker(now) {
    const picker = pickerFor(now.game);
    const legal = now.legal;
    const playable = true; // the arbiter plays its own moves, or a chosen seat's on its behalf
    const sections = offer(picker, now.view, legal, this.picked);
    const out = sections.map((section) =>
      h(
        "fieldset",
        { class: "choices", dataset: { kind: section.kind } },
        h("legend", {}, section.title),
        h(
          "div",
          { class: "buttons" },
          section.choices.map((choice) => this.choiceButton(choice, playable)),
        ),
      ),
    );
    const every = h(
      "details",
      { class: "every-move" },
      h("summary", {}, `Every legal move (${legal.moves.length}${legal.complete ? "" : ", a sample"})`),
      h(
        "ul",
        {},
        legal.moves.map((move) =>
          h("li", {}, this.moveButton(describe(picker, move, now.view), move, playable, "list")),
        ),
      ),
    );
    out.push(every);
    if (!legal.complete) {
      if (legal.sample_note) out.push(h("p", { class: "hint" }, legal.sample_note));
      out.push(this.schemaForm(playable));
    }
    return out;
  }

  choiceButton(choice, playable) {
    if (choice.move !== undefined && choice.move !== null) {
      return this.moveButton(choice.label, choice.move, playable, choice.send ? "send" : "choice");
    }
    const attributes = {
      type: "button",
      class: choice.back ? "choice back" : choice.toggle ? "choice toggle" : choice.send ? "choice send" : "choice step",
      disabled: Boolean(choice.disabled),
      title: choice.why || null,
      onclick: () => this.clicked(choice),
    };
    if (choice.toggle) {
      attributes["aria-pressed"] = choice.pressed ? "true" : "false";
      attributes.dataset = { item: JSON.stringify(choice.toggle.item) };
    } else if (choice.pick) attributes.dataset = { pick: JSON.stringify(choice.pick.values) };
    return h("button", attributes, choice.label);
  }

  moveButton(label, move, playable, kind) {
    return h(
      "button",
      {
        type: "button",
        class: `choice move ${kind}`,
        disabled: !playable || this.sending,
        dataset: { move: JSON.stringify(move) },
        onclick: () => this.send(move),
      },
      label,
    );
  }

  clicked(choice) {
    this.picked = choose(this.picked, choice);
    this.render();
    const again = this.el.panel.querySelector(`fieldset[data-kind="${cssEscape(choice.pick?.kind || choice.toggle?.kind || choice.unpick)}"] button`);
    if (again) again.focus(); // the keyboard stays in the section it was in
  }

  schemaForm(playable) {
    const schema = this.schemas.get(this.now.game);
    const variants = variantsOf(schema);
    if (!variants.length) return h("p", { class: "hint" }, "This game publishes no move schema.");
    const chosen = Math.min(Number(this.formValues.__variant || 0), variants.length - 1);
    const variant = variants[chosen];
    const values = this.formValues;
    const message = h("p", { class: "form-error", role: "alert" });
    const fields = variant.fields
      .filter((field) => field.kind !== "const" || variants.length === 1)
      .map((field) => this.formField(field, values));
    const form = h(
      "form",
      {
        class: "schema-form",
        onsubmit: (event) => {
          event.preventDefault();
          const made = moveFrom(variant, this.readForm(form, variant));
          if (made.error) message.textContent = made.error;
          else this.send(made.move);
        },
      },
      variants.length > 1
        ? h(
            "label",
            {},
            "Kind of move ",
            h(
              "select",
              {
                name: "__variant",
                onchange: (event) => {
                  this.formValues = { __variant: event.target.value };
                  this.render();
                },
              },
              variants.map((v, i) => h("option", { value: String(i), selected: i === chosen }, v.title)),
            ),
          )
        : null,
      variant.description ? h("p", { class: "hint" }, variant.description) : null,
      fields,
      message,
      h("button", { type: "submit", disabled: !playable || this.sending }, "Send this move"),
    );
    return h("details", { class: "every-move schema", open: true }, h("summary", {}, "Any move, by the game's schema"), form);
  }

  formField(field, values) {
    const id = `move-field-${field.name || "json"}`;
    const value = values[field.name] ?? field.value;
    const keep = (event) => {
      values[field.name] = event.target.type === "checkbox" ? event.target.checked : event.target.value;
    };
    let input;
    if (field.kind === "enum") {
      input = h("select", { id, name: field.name, onchange: keep }, field.options.map((o) => h("option", { value: String(o), selected: String(o) === String(value) }, String(o))));
    } else if (field.kind === "boolean") {
      input = h("input", { id, name: field.name, type: "checkbox", checked: Boolean(value), onchange: keep });
    } else if (field.kind === "json") {
      input = h("textarea", { id, name: field.name, rows: 3, spellcheck: "false", oninput: keep }, String(value));
    } else if (field.kind === "const") {
      input = h("input", { id, name: field.name, value: String(value), readOnly: true });
    } else {
      input = h("input", { id, name: field.name, type: field.kind === "integer" ? "number" : "text", value: String(value), oninput: keep });
    }
    return h("label", { class: "field", for: id }, h("span", {}, field.name || "the move (JSON)"), input, field.description ? h("small", {}, field.description) : null);
  }

  readForm(form, variant) {
    const values = {};
    for (const field of variant.fields) {
      const input = form.elements.namedItem(field.name || "");
      if (!input) continue;
      values[field.name] = input.type === "checkbox" ? input.checked : input.value;
    }
    return values;
  }

  // The picture's own pieces as targets: a hand's card, a free place.
  markBoard() {
    const board = this.el.board;
    for (const old of board.querySelectorAll(".target")) old.classList.remove("target");
    if (!this.now?.legal || this.drawnPosition() !== this.now.position) return;
    const sections = offer(pickerFor(this.now.game), this.now.view, this.now.legal, this.picked);
    for (const section of sections) {
      if (!section.board) continue;
      const offered = new Set(section.choices.filter((c) => c.move || c.pick).map((c) => JSON.stringify(c.pick?.values ?? boardValues(section, c.move))));
      for (const element of board.querySelectorAll(section.board.selector)) {
        if (offered.has(JSON.stringify(boardPick(section, element.dataset)))) element.classList.add("target");
      }
    }
  }

  drawnPosition() {
    const drawn = this.el.board.dataset.position;
    return drawn === undefined ? null : Number(drawn);
  }

  boardClicked(event) {
    if (!this.now?.legal || event.target.closest?.("button")) return;
    const target = event.target.closest?.(".target");
    if (!target) return;
    const sections = offer(pickerFor(this.now.game), this.now.view, this.now.legal, this.picked);
    for (const section of sections) {
      if (!section.board || !target.matches(section.board.selector)) continue;
      const values = JSON.stringify(boardPick(section, target.dataset));
      const choice = section.choices.find((c) => JSON.stringify(c.pick?.values ?? boardValues(section, c.move)) === values);
      if (!choice) continue;
      if (choice.move) this.send(choice.move);
      else this.clicked(choice);
      return;
    }
  }

  async send(move) {
    if (this.sending || !this.now) return;
    this.sending = true;
    const at = this.now.position;
    this.el.panel.classList.add("sending");
    try {
      const forSeat = this.now.viewer === "#arbiter" ? this.seat : "";
      const answer = await this.moves.play(this.gameId, this.keyring.token, move, at, forSeat);
      this.sending = false;
      this.picked = {};
      this.formValues = {};
      this.hooks.onPlayed(answer);
      this.show(answer.table);
    } catch (error) {
      this.sending = false;
      if (error.reason === "stale-position" || error.reason === "position-taken") {
        await this.refresh("The game moved on while you chose: here it is now. Your choices are kept where they still fit.");
      } else {
        this.hooks.say(error.message);
        this.render(error.message);
      }
    } finally {
      this.sending = false;
      this.el.panel.classList.remove("sending");
    }
  }
}

function boardValues(section, move) {
  if (!move || !section.board) return null;
  const flat = {};
  const walk = (value, prefix) => {
    for (const [key, inner] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (inner && typeof inner === "object" && !Array.isArray(inner)) walk(inner, path);
      else flat[path] = inner;
    }
  };
  walk(move, "");
  return Object.keys(section.board.fields).map((field) => flat[field]);
}

function cssEscape(text) {
  return String(text).replace(/["\\]/g, "\\$&");
}
