// The live feed: one server-sent event stream for the game on show (never
// more than one per page), fed by FollowGame. It resumes after a broken
// connection from the first record it has not seen.

import { stream } from "./api.js";

const RETRY_MS = [500, 1000, 2000, 5000, 10000];

export class LiveFeed {
  constructor({ onRecord, onEnd, onState }) {
    this.onRecord = onRecord;
    this.onEnd = onEnd;
    this.onState = onState;
    this.controller = null;
  }

  // Follow gameId from position `from` on, as the token's viewer.
  start(gameId, token, from) {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    let next = from;
    let failures = 0;
    let finished = false;
    const run = async () => {
      while (!controller.signal.aborted) {
        this.onState("live");
        try {
          let ended = false; // the front end closed the stream
          await stream(
            `/api/games/${encodeURIComponent(gameId)}/follow?from=${next}`,
            token,
            controller.signal,
            (name, data) => {
              if (name === "record") {
                failures = 0;
                next = data.position + 1;
                finished ||= data.kind === "finished";
                this.onRecord(data);
              } else if (name === "end") {
                ended = true;
              } else if (name === "error") {
                throw Object.assign(new Error(data.message), { fatal: data.code !== "RESOURCE_EXHAUSTED" });
              }
            },
          );
          if (finished || controller.signal.aborted) break;
          // The stream ended before the game did (the server went away): resume.
          if (ended) throw new Error("the live stream ended early");
          throw new Error("the live stream broke off");
        } catch (error) {
          if (controller.signal.aborted || error.name === "AbortError") return;
          if (error.fatal || (error.status >= 400 && error.status < 500 && error.status !== 429)) {
            this.onState("off", error.message);
            return;
          }
          this.onState("waiting", error.message);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
          failures += 1;
          continue;
        }
      }
      if (!controller.signal.aborted) {
        this.onState("off");
        this.onEnd();
      }
    };
    run();
  }

  stop() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }
}
