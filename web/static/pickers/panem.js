// Die Tribute von Panem: go to a location and use it (or skip it, or take
// the advantage beside it); at the Hob or the storehouse, choose the
// exchanges; in the trading phase propose trades (to a seat, your cards
// for the goods you ask), accept, decline or withdraw offers; seal a
// tribute; discard down to the hand limit.

import { andList, placeName } from "./words.js";

function offerWords(view, id) {
  const offer = (view?.trading?.offers || []).find((o) => o.id === id);
  if (!offer) return `offer ${id}`;
  return `${offer.from} gives ${andList(offer.give)} to ${offer.to} for ${andList(offer.ask)}`;
}

const hand = (view) => (view?.hands && view.viewer ? view.hands[view.viewer] || [] : []);

export default {
  kinds: {
    go: {
      title: "Go to a location",
      steps: [{ fields: ["go"], words: ([space]) => placeName(space) }],
      board: { selector: "g.space[data-space]", fields: { go: "space" } },
    },
    act: { title: "Use the location", steps: [{ fields: ["act"], words: () => "use its action" }] },
    take_advantage: {
      title: "Take the advantage",
      steps: [{ fields: ["take_advantage"], words: () => "take the advantage card beside it" }],
    },
    skip: { title: "Skip", steps: [{ fields: ["skip"], words: () => "skip the action" }] },
    swap_with: { title: "Swap places", steps: [{ fields: ["swap_with"], words: ([seat]) => `with ${seat}` }] },
    keep: { title: "Keep a card", steps: [{ fields: ["keep"], words: ([card]) => (card ? `keep ${card}` : "keep none") }] },
    exchange: {
      title: "Exchange",
      sets: [{ field: "exchange", title: "pairs", words: ([mine, theirs]) => `${mine} ⇄ ${theirs}` }],
      sendWords: (items) => (items.exchange?.length ? `Exchange ${andList(items.exchange.map(([a, b]) => `${a} for ${b}`))}` : "Exchange nothing"),
    },
    tribute: {
      title: "Seal your tribute",
      sets: [{ field: "tribute", title: "cards" }],
      sendWords: (items) => `Seal ${items.tribute?.length ? andList(items.tribute) : "no card"} as tribute`,
    },
    discard: {
      title: "Discard",
      sets: [{ field: "discard", title: "cards" }],
      sendWords: (items) => `Discard ${andList(items.discard || [])}`,
    },
    accept: { title: "Accept an offer", steps: [{ fields: ["accept"], words: ([id], view) => offerWords(view, id) }] },
    decline: { title: "Decline an offer", steps: [{ fields: ["decline"], words: ([id], view) => offerWords(view, id) }] },
    withdraw: { title: "Withdraw your offer", steps: [{ fields: ["withdraw"], words: ([id], view) => offerWords(view, id) }] },
    propose: {
      title: "Propose a trade",
      open: true,
      steps: [{ fields: ["propose.to"], words: ([seat]) => `to ${seat}` }],
      sets: [
        { field: "propose.give", title: "you give", items: (view) => hand(view) },
        { field: "propose.ask", title: "you ask for" },
      ],
      sendWords: (items) => `Offer ${andList(items["propose.give"] || [])} for ${andList(items["propose.ask"] || [])}`,
    },
    "show+to": { title: "Show your hand", steps: [{ fields: ["show", "to"], words: ([what, to]) => `show your ${what} to ${to}` }] },
    done: { title: "Done trading", steps: [{ fields: ["done"], words: () => "I am done trading" }] },
  },
  describe(move, view) {
    if (move.go) return `go to ${placeName(move.go)}`;
    if (move.propose) return `offer ${move.propose.to} ${andList(move.propose.give)} for ${andList(move.propose.ask)}`;
    if (move.accept !== undefined) return `accept: ${offerWords(view, move.accept)}`;
    if (move.decline !== undefined) return `decline: ${offerWords(view, move.decline)}`;
    if (move.tribute) return `seal ${move.tribute.length ? andList(move.tribute) : "no card"} as tribute`;
    if (move.exchange) return move.exchange.length ? `exchange ${andList(move.exchange.map(([a, b]) => `${a} for ${b}`))}` : "exchange nothing";
    return null;
  },
};
