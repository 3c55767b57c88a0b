// 3 sind eine zu viel!: a turn is one card from your hand, played to the row
// the rules choose. Click the card (in the picker or on the picture).

export default {
  kinds: {
    card: {
      title: "Play a card from your hand",
      steps: [{ fields: ["card"], words: ([card]) => `card ${card}` }],
      board: { selector: ".hand [data-card]", fields: { card: "card" } },
    },
  },
  describe: (move) => (move.card !== undefined ? `play card ${move.card}` : null),
};
