// Taking back: a seat asks to take back its own last move (or to go back to
// an earlier position), the other seats and the arbiter see the request live
// and answer it; the arbiter orders a take-back to any position. Every
// answer says what happened, in words.

import { h } from "./dom.js";
import { Moves } from "./transport.js";

// The current line of play: each take-back cuts it back to its position.
export function currentLine(records) {
  const line = [];
  for (const record of records) {
    if (record.kind === "move") line.push(record);
    else if (record.kind === "takeback") {
      while (line.length && line[line.length - 1].position > record.to_position) line.pop();
    }
  }
  return line;
}

// Where a seat's "take back my last move" goes: the position just before its
// last move still standing; null when it has none.
export function beforeOwnLastMove(records, seat) {
  const line = currentLine(records);
  for (let i = line.length - 1; i >= 0; i -= 1) {
    if (line[i].seat === seat) return i > 0 ? line[i - 1].position : 0;
  }
  return null;
}

export class TakeBack {
  constructor(panel, keyring, hooks) {
    this.panel = panel;
    this.keyring = keyring;
    this.hooks = hooks; // records(), shown(), say(message), changed()
    this.moves = new Moves();
    this.said = "";
  }

  render(now, policy) {
    const panel = this.panel;
    if (!now || !now.viewer || now.finished) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const parts = [h("h2", {}, "Take back")];
    const pending = now.pending_undo;
    const arbiter = now.viewer === "#arbiter";
    if (pending) {
      const asker = pending.seat === "#arbiter" ? "the arbiter" : pending.seat;
      const approved = pending.approved?.length ? ` (approved by ${pending.approved.join(", ")})` : "";
      parts.push(h("p", { class: "pending", role: "status" }, `${asker} asks to go back to position ${pending.to_position}${approved}.`));
      const mine = pending.seat === now.viewer || (pending.approved || []).includes(now.viewer);
      if (!mine && !arbiter) {
        parts.push(
          h(
            "div",
            { class: "buttons" },
            h("button", { type: "button", class: "approve", onclick: () => this.act(now, "approve", pending.to_position) }, "Approve"),
            h("button", { type: "button", class: "decline", onclick: () => this.act(now, "decline", pending.to_position) }, "Decline"),
          ),
        );
      } else if (!arbiter) parts.push(h("p", { class: "hint" }, "Waiting for the other seats' answers."));
    }
    if (arbiter) {
      parts.push(this.toPosition(now, "Take back to position", "order"));
    } else if (policy === "none") {
      parts.push(h("p", { class: "hint" }, "This game allows no take-backs (its undo policy is none)."));
    } else if (!pending) {
      const target = beforeOwnLastMove(this.hooks.records(), now.viewer);
      parts.push(
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            { type: "button", class: "ask-own", disabled: target === null, onclick: () => this.act(now, "request", target) },
            target === null ? "No move of yours to take back" : `Take back my last move (to position ${target})`,
          ),
        ),
        this.toPosition(now, "Ask to go back to position", "ask-to"),
      );
      if (policy === "arbiter") parts.push(h("p", { class: "hint" }, "In this game only the arbiter takes moves back."));
      if (policy === "consent") parts.push(h("p", { class: "hint" }, "Every other seat must approve."));
    }
    if (this.said) parts.push(h("p", { class: "said", role: "status" }, this.said));
    panel.replaceChildren(...parts);
  }

  toPosition(now, words, name) {
    const input = h("input", { type: "number", min: "0", max: String(now.position), value: String(this.hooks.shown() ?? now.position), id: `takeback-${name}`, class: "position-input" });
    return h(
      "form",
      {
        class: `takeback-to ${name}`,
        onsubmit: (event) => {
          event.preventDefault();
          this.act(now, "request", Number(input.value));
        },
      },
      h("label", { for: `takeback-${name}` }, words, " "),
      input,
      h("button", { type: "submit" }, "Go"),
    );
  }

  async act(now, action, to) {
    try {
      const answer = await this.moves.takeBack(now.game_id, this.keyring.token, action, to, now.position);
      this.said = answer.says;
      this.hooks.say(answer.says);
    } catch (error) {
      this.said = error.message;
      this.hooks.say(error.message);
    }
    this.hooks.changed();
  }
}
