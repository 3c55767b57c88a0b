// Each game's move picker, by the game's name; a game without one gets the
// engine's defaults (its moves grouped by their keys, worded from their JSON).

import carcassonne from "./carcassonne-hg.js";
import freeform from "./freeform.js";
import hadara from "./hadara.js";
import panem from "./panem.js";
import pyramidion from "./pyramidion.js";
import threeTooMany from "./three-too-many.js";

const PICKERS = {
  "three-too-many": threeTooMany,
  "carcassonne-hg": carcassonne,
  panem,
  hadara,
  pyramidion,
  freeform,
};

export function pickerFor(game) {
  return PICKERS[game] || { kinds: {} };
}
