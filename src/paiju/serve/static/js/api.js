// The arena's HTTP API (see paiju.serve): JSON in, JSON out, errors raised with the server's message.

async function request(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  const payload = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const detail = payload && payload.detail;
    const message = typeof detail === "string" ? detail : JSON.stringify(detail ?? payload);
    throw new Error(`${response.status}: ${message}`);
  }
  return payload;
}

export const api = {
  games: () => request("GET", "/api/games"),
  tables: () => request("GET", "/api/tables"),
  createTable: (spec) => request("POST", "/api/tables", spec),
  reserveSeat: (tableId, seat) => request("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`),
  records: (limit = 50) => request("GET", `/api/records?limit=${limit}`),
  record: (recordId) => request("GET", `/api/records/${encodeURIComponent(recordId)}`),
  frames: (recordId) => request("GET", `/api/records/${encodeURIComponent(recordId)}/frames`),
  tableFrames: (tableId, since) => request("GET", `/api/tables/${encodeURIComponent(tableId)}/frames?since=${since}`),
};

/** The websocket URL of a seat (the token proves the seat is ours). */
export function seatSocketUrl(tableId, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`;
}

/** Seat tokens live in localStorage, so a reload (or a later visit) resumes the seat. */
export const tokens = {
  key: (tableId, seat) => `paiju.token.${tableId}.${seat}`,
  save(tableId, seat, token) { localStorage.setItem(this.key(tableId, seat), token); },
  load(tableId, seat) { return localStorage.getItem(this.key(tableId, seat)); },
};
