// Carcassonne (Jegere og Sankere): lay the drawn tile on a free place of the
// map (click a marked place on the picture, or pick it here), choose how it
// is turned, then place a figure on one of its zones or none.

const TURNS = ["not turned", "turned 90°", "turned 180°", "turned 270°"];

export function turnWords(rotation) {
  return TURNS[rotation] ?? `turned ${rotation}`;
}

export default {
  kinds: {
    place: {
      title: "Lay the tile",
      steps: [
        { fields: ["place.x", "place.y"], words: ([x, y]) => `at (${x}, ${y})` },
        { fields: ["place.rotation"], words: ([rotation]) => turnWords(rotation) },
      ],
      board: { selector: "g.fits", fields: { "place.x": "x", "place.y": "y" } },
    },
    deploy: {
      title: "Place a figure",
      steps: [
        { fields: ["deploy.piece"], words: ([piece]) => `a ${piece}` },
        { fields: ["deploy.zone"], words: ([zone]) => `on zone ${zone} of the tile` },
      ],
    },
    pass: { title: "Place no figure", steps: [{ fields: ["pass"], words: () => "no figure this turn" }] },
  },
  describe(move) {
    if (move.place) return `lay the tile at (${move.place.x}, ${move.place.y}), ${turnWords(move.place.rotation)}`;
    if (move.deploy) return `place a ${move.deploy.piece} on zone ${move.deploy.zone}`;
    if (move.pass) return "place no figure";
    return null;
  },
};
