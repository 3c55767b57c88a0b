// The page's only way to the front end: JSON calls and the live stream.
// The caller's token goes in an Authorization header on each request, never
// in a URL, so no log on the way can keep it.

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `the front end answered ${status}`);
    this.status = status;
    this.code = error?.code || "";
    this.reason = error?.reason || "";
  }
}

function headers(token, extra = {}) {
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

async function answer(response) {
  if (response.ok) return response.json();
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: say what we know
  }
  throw new ApiError(response.status, body?.error);
}

export async function get(path, token = null, signal = undefined) {
  let response;
  try {
    response = await fetch(path, { headers: headers(token), signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { message: "the web front end does not answer" });
  }
  return answer(response);
}

export async function post(path, body, token = null) {
  const response = await fetch(path, {
    method: "POST",
    headers: headers(token, { "Content-Type": "application/json" }),
    body: JSON.stringify(body),
  });
  return answer(response);
}

export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of [].concat(value)) {
      if (one !== "" && one !== null && one !== undefined) search.append(key, one);
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

// A server-sent event stream read with fetch (EventSource cannot send a
// header). Calls onEvent(name, data) for each event; resolves when the
// stream ends, rejects when it breaks; abort with the signal.
export async function stream(path, token, signal, onEvent) {
  const response = await fetch(path, {
    headers: headers(token, { Accept: "text/event-stream" }),
    signal,
  });
  if (!response.ok) await answer(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}
