// strokes: the live finger-paint page.
//
// Connects to the daemon's WebSocket (`ws`, protocol version 1, one JSON message per text frame),
// or to its Server-Sent Events stream (`events`) when WebSocket cannot be used, and draws every
// device's strokes as `strokes render` does: one canvas per device in its aspect ratio, a colour
// per stroke, width from pressure (or touch size), cancelled strokes dashed and faded, a dot where
// a stroke began, a ring at the last point of a finger still down, hover as a dashed grey ring.
//
// Session: after `hello` it sends `devices`, then `subscribe` with `resumeAfter` = the last `seq`
// it saw (0 on the first connection: every message the daemon still holds, so the picture shows
// the recent past; when the daemon no longer holds them all it replies `gapTooOld` and sends a
// snapshot, and the page asks for `history` to fill in the completed strokes). A new daemon
// `instance` (a restart) starts the picture afresh: its stroke ids and sequence numbers are new.
// On a lost connection it reconnects with backoff (0.25 s doubling to 8 s) and resumes by `seq`:
// a message with `seq` ≤ the last one seen is ignored, so nothing is drawn twice.
//
// Query parameters: `transport=sse` uses the event stream only; `hover=1` subscribes to hover;
// `token=…` is passed on to the daemon (needed off loopback).
//
// For tests, `window.strokesState` is the page's whole drawn state, kept current:
//
//   {
//     connected: boolean,            // a session is up (hello received, not closed since)
//     transport: "ws" | "sse",
//     instance: string | null,       // the daemon instance of the current session
//     lastSeq: number,               // the highest stream `seq` applied
//     devices: { [id]: deviceObject },   // as in the `devices` reply / `deviceAdded`, plus `removed: true` once gone
//     strokes: { [id]: {
//       device: number,
//       state: "live" | "ended" | "cancelled",
//       reason?: string,             // cancelled only: the protocol's reason, or "gapTooOld" when the
//                                    // stroke's end fell in a gap the daemon could not resume
//       points: [[x, y, time], ...]  // raw device units and the event's `time` (µs), in order; the
//                                    // `ended` sample is added only when it differs from the last
//                                    // point (the protocol's rule, as `strokes render` folds them)
//     } },
//     events: number,                // stream messages applied
//     hoverEvents: number,           // hover messages drawn (subscribed with the hover box or ?hover=1)
//     resumes: number,               // reconnections that resumed without a gap
//     gaps: number,                  // reconnections answered with gapTooOld (or a new instance)
//   }
//
// and `window.__strokesTest.dropConnection()` closes the current connection as a network failure
// would (the page reconnects and resumes by itself).
"use strict";

(() => {
  const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  const STROKE_TYPES = ["began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved"];
  const params = new URLSearchParams(location.search);
  const token = params.get("token");

  const state = {
    connected: false,
    transport: params.get("transport") === "sse" || !("WebSocket" in window) ? "sse" : "ws",
    instance: null,
    lastSeq: 0,
    devices: {},
    strokes: {},
    events: 0,
    hoverEvents: 0,
    resumes: 0,
    gaps: 0,
  };
  window.strokesState = state;

  // What the drawing needs beyond strokesState, by stroke id: slot, flags, tool, width values.
  const detail = new Map();
  // By device id: {panel, canvas, legend, …}.
  const views = new Map();
  // Hover by "device/slot": {device, toolType, points: [[x, y]]} (the last few positions).
  const hovering = new Map();
  const hoverBox = document.getElementById("hover");
  hoverBox.checked = params.get("hover") === "1";

  // MARK: - Applying messages

  function strokeState(objectState) {
    return objectState === "inProgress" ? "live" : objectState === "ended" ? "ended" : "cancelled";
  }

  function pointOf(p) {
    return [p.x, p.y, p.time];
  }

  // The keys the `ended` rule compares (StrokeCollector's samePosition).
  function sameSample(a, b) {
    return a.x === b.x && a.y === b.y && a.pressure === b.pressure && a.touchMajor === b.touchMajor
      && a.touchMinor === b.touchMinor && a.orientation === b.orientation;
  }

  function widthValue(p) {
    if (p.normalizedPressure !== undefined) return { axis: "normalizedPressure", value: p.normalizedPressure };
    if (p.pressure !== undefined) return { axis: "pressure", value: p.pressure };
    if (p.touchMajor !== undefined) return { axis: "touchMajor", value: p.touchMajor };
    return null;
  }

  function remember(id, p) {
    const d = detail.get(id);
    d.last = p;
    const w = widthValue(p);
    if (w) {
      d.widthAxis = w.axis;
      d.widthValues.push(w.value);
      const v = view(d.device);
      if (v && w.axis !== "normalizedPressure") {
        v.lo = Math.min(v.lo, w.value);
        v.hi = Math.max(v.hi, w.value);
      }
    }
    if (p.toolType !== undefined) d.toolType = p.toolType;
  }

  // A whole stroke from a snapshot or a history reply: replaces what the page holds when it is
  // further along (an ended stroke over the same one seen in progress).
  function insertStroke(o) {
    const known = state.strokes[o.stroke];
    const s = strokeState(o.state);
    const behind = known && (known.state === "live" || known.reason === "gapTooOld");
    if (known && !(behind && (s !== "live" || o.points.length >= known.points.length))) return;
    state.strokes[o.stroke] = { device: o.device, state: s, points: o.points.map(pointOf) };
    detail.set(o.stroke, { device: o.device, slot: o.slot, flags: o.flags || [], widthValues: [], toolType: undefined, last: null, path: null, clipped: false });
    for (const p of o.points) remember(o.stroke, p);
    touch(o.device);
  }

  function applyStroke(m) {
    const id = m.stroke;
    let s = state.strokes[id];
    if (!s) {
      // A stroke the page has not seen begin (joined mid-stroke): start it from this point.
      s = state.strokes[id] = { device: m.device, state: "live", points: [pointOf(m)] };
      detail.set(id, { device: m.device, slot: m.slot, flags: m.flags || [], widthValues: [], toolType: undefined, last: null, path: null, clipped: m.type !== "began" });
      remember(id, m);
    } else if (s.state !== "live") {
      return; // the protocol promises nothing after the end
    } else if (m.type === "moved") {
      s.points.push(pointOf(m));
      remember(id, m);
    } else if (m.type === "ended") {
      if (!sameSample(detail.get(id).last, m)) {
        s.points.push(pointOf(m));
        remember(id, m);
      }
    }
    if (m.type === "ended") s.state = "ended";
    if (m.type === "cancelled") {
      s.state = "cancelled";
      s.reason = m.reason;
    }
    measureLatency(m.time);
    arrived(m.device);
    touch(m.device);
  }

  function applyHover(m) {
    state.hoverEvents += 1;
    arrived(m.device);
    const key = m.device + "/" + m.slot;
    if (m.phase === "proximityOut") {
      hovering.delete(key);
    } else {
      let h = hovering.get(key);
      if (!h) hovering.set(key, (h = { device: m.device, toolType: m.toolType, points: [] }));
      h.points.push([m.x, m.y]);
      if (h.points.length > 64) h.points.shift();
    }
    touch(m.device);
  }

  function addDevice(d) {
    state.devices[d.device] = Object.assign({}, d);
    view(d.device, true);
    touch(d.device);
  }

  function removeDevice(id) {
    if (state.devices[id]) state.devices[id].removed = true;
    const v = views.get(id);
    if (v) v.panel.classList.add("removed");
    touch(id);
  }

  // Live strokes the daemon's snapshot does not list ended or were cancelled in a gap: their end
  // was not seen. History may still bring the ended ones.
  function settleAfterGap(snapshot) {
    const listed = new Set(snapshot.strokes.map((o) => o.stroke));
    for (const [id, s] of Object.entries(state.strokes)) {
      if (s.state === "live" && !listed.has(Number(id))) {
        s.state = "cancelled";
        s.reason = "gapTooOld";
        touch(s.device);
      }
    }
  }

  let requestID = 0;
  let pendingResume = null; // the subscribe request awaiting its reply: {id, after}
  let awaitingSnapshotAfterGap = false;

  function handle(m) {
    switch (m.type) {
      case "hello":
        if (state.instance !== null && state.instance !== m.instance) resetForNewInstance();
        state.instance = m.instance;
        sessionUp();
        send({ request: "devices" });
        subscribe();
        return;
      case "reply":
        if (m.request === "devices") {
          // Devices gone while the page was away (their deviceRemoved may have fallen in a gap).
          const present = new Set(m.devices.map((d) => d.device));
          for (const id of Object.keys(state.devices)) if (!present.has(Number(id))) removeDevice(Number(id));
          for (const d of m.devices) addDevice(d);
        }
        if (m.request === "subscribe" && pendingResume && m.id === pendingResume.id) {
          if (pendingResume.after > 0 && m.resumed === true) state.resumes += 1;
          if (m.resumed === false) {
            state.gaps += 1;
            awaitingSnapshotAfterGap = true;
            send({ request: "history" });
          }
          pendingResume = null;
        }
        if (m.request === "history") {
          for (const o of m.strokes) insertStroke(o);
          // One page per reply (historyPageBytes): follow the cursor to the last page.
          if (m.cursor) send({ request: "history", cursor: m.cursor });
        }
        return;
      case "snapshot":
        if (awaitingSnapshotAfterGap) settleAfterGap(m);
        awaitingSnapshotAfterGap = false;
        for (const o of m.strokes) insertStroke(o);
        if (m.seq > state.lastSeq) state.lastSeq = m.seq;
        return;
      case "hover":
        applyHover(m);
        return;
      case "error":
        console.warn("strokes:", m.error, m.message);
        return;
      case "goodbye":
        goodbyeReason = m.reason;
        return;
    }
    if (STROKE_TYPES.includes(m.type)) {
      // Resumed and live messages overlap only by mistake; never apply one twice.
      if (typeof m.seq === "number") {
        if (m.seq <= state.lastSeq) return;
        state.lastSeq = m.seq;
      }
      state.events += 1;
      countEvent();
      switch (m.type) {
        case "deviceAdded":
          addDevice(m);
          return;
        case "deviceRemoved":
          removeDevice(m.device);
          return;
        default:
          applyStroke(m);
      }
    }
    // Types this page does not know are ignored (docs/protocol.md, "Compatibility rules").
  }

  function resetForNewInstance() {
    state.lastSeq = 0;
    state.strokes = {};
    state.devices = {};
    detail.clear();
    hovering.clear();
    for (const v of views.values()) v.panel.remove();
    views.clear();
    state.gaps += state.instance === null ? 0 : 1;
  }

  function subscribedEvents() {
    return hoverBox.checked ? STROKE_TYPES.concat(["hover"]) : STROKE_TYPES;
  }

  // MARK: - Connection

  let socket = null;
  let source = null;
  let attempts = 0;
  let everConnected = false;
  let reconnectTimer = null;
  let goodbyeReason = null;

  function withToken(url) {
    if (token) url.searchParams.set("token", token);
    return url;
  }

  function send(request, id = ++requestID) {
    const message = Object.assign({ id }, request);
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function subscribe() {
    pendingResume = { id: ++requestID, after: state.lastSeq };
    send({ request: "subscribe", events: subscribedEvents(), resumeAfter: state.lastSeq }, pendingResume.id);
  }

  function sessionUp() {
    state.connected = true;
    everConnected = true;
    attempts = 0;
    goodbyeReason = null;
    showConnection("connected", "connected (" + (state.transport === "ws" ? "WebSocket" : "event stream") + ")");
  }

  function connect() {
    reconnectTimer = null;
    showConnection("connecting", attempts ? "reconnecting…" : "connecting…");
    if (state.transport === "ws") connectSocket();
    else connectEventStream();
  }

  function connectSocket() {
    const url = withToken(new URL("ws", location.href));
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      lost();
      return;
    }
    socket = ws;
    ws.onmessage = (e) => {
      if (ws !== socket) return;
      let m;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        console.warn("strokes: not JSON:", e.data);
        return;
      }
      handle(m);
    };
    ws.onclose = () => {
      if (ws !== socket) return;
      socket = null;
      lost();
    };
    ws.onerror = () => {}; // onclose follows
  }

  // The event stream carries the same messages as the WebSocket (stream messages with their seq
  // as the event id, the rest as named events). The page resumes with `lastEventId` (as
  // `resumeAfter`) and reads devices and history from `devices` and `history`.
  function connectEventStream() {
    const url = withToken(new URL("events", location.href));
    url.searchParams.set("events", subscribedEvents().join(","));
    url.searchParams.set("lastEventId", String(state.lastSeq)); // 0: everything the daemon still holds
    const es = new EventSource(url);
    source = es;
    const onData = (e) => {
      if (es !== source) return;
      let m;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      if (!state.connected && m.type !== "hello") {
        sessionUp();
        fetchDevices();
      }
      if (m.type === "hello") {
        if (state.instance !== null && state.instance !== m.instance) {
          // A restarted daemon: this stream resumed after a seq of the old instance, which names
          // other messages now. Start afresh, and open the stream again from the new one's start.
          resetForNewInstance();
          state.instance = m.instance;
          es.close();
          source = null;
          connectEventStream();
          return;
        }
        state.instance = m.instance;
        sessionUp();
        fetchDevices();
        return;
      }
      if (m.type === "reply" && m.request === "subscribe") {
        if (m.resumed === true && state.lastSeq > 0) state.resumes += 1;
        if (m.resumed === false) {
          state.gaps += 1;
          awaitingSnapshotAfterGap = true;
          fetchHistory();
        }
        return;
      }
      handle(m);
    };
    es.onmessage = onData;
    for (const t of ["hello", "reply", "snapshot", "goodbye", "error"].concat(STROKE_TYPES, ["hover"])) es.addEventListener(t, onData);
    es.onerror = () => {
      if (es !== source) return;
      // EventSource retries by itself with Last-Event-ID; the page owns the backoff instead, so
      // that both transports behave alike.
      es.close();
      source = null;
      lost();
    };
  }

  function fetchDevices() {
    fetch(withToken(new URL("devices", location.href)))
      .then((r) => r.json())
      .then((body) => {
        for (const d of body.devices || body) addDevice(d);
      })
      .catch(() => {});
  }

  // Every page of the completed strokes, following `cursor` to the last.
  function fetchHistory(cursor) {
    const url = withToken(new URL("history", location.href));
    if (cursor) url.searchParams.set("cursor", cursor);
    fetch(url)
      .then((r) => r.json())
      .then((body) => {
        for (const o of body.strokes || []) insertStroke(o);
        if (body.cursor) fetchHistory(body.cursor);
      })
      .catch(() => {});
  }

  function lost() {
    const wasConnected = state.connected;
    state.connected = false;
    pendingResume = null;
    attempts += 1;
    // A WebSocket that never came up (a proxy that does not pass upgrades): use the event stream.
    if (state.transport === "ws" && !everConnected && attempts >= 2 && "EventSource" in window) state.transport = "sse";
    const delay = Math.min(8000, 250 * Math.pow(2, Math.max(0, attempts - 1)));
    const why = goodbyeReason ? " (" + goodbyeReason + ")" : "";
    showConnection("disconnected", (wasConnected ? "connection lost" : "cannot connect") + why + ", retrying in " + (delay / 1000).toFixed(1) + " s");
    if (!reconnectTimer) reconnectTimer = setTimeout(connect, delay);
  }

  function dropConnection() {
    if (socket) socket.close();
    if (source) {
      source.close();
      source = null;
      lost();
    }
  }

  window.__strokesTest = { dropConnection };

  function showConnection(kind, text) {
    const el = document.getElementById("connection");
    el.className = "connection " + kind;
    document.getElementById("connection-text").textContent = text;
  }

  // MARK: - Rates and latency

  const recent = []; // arrival times (ms) of the last second's events
  let latency = null; // {ms} smoothed, or null when the clocks do not allow
  let latencyKnown = false;

  function countEvent() {
    const now = performance.now();
    recent.push(now);
    while (recent.length && recent[0] < now - 1000) recent.shift();
  }

  // Per device, for its legend.
  function arrived(device) {
    const v = view(device, true);
    const now = performance.now();
    v.recent.push(now);
    while (v.recent.length && v.recent[0] < now - 1000) v.recent.shift();
  }

  // The daemon's `time` is the kernel's (CLOCK_MONOTONIC for live devices, the recording's own
  // clock in a replay): a latency means something only when it is close to this browser's wall
  // clock (a device on CLOCK_REALTIME, or clocks that happen to agree). Beyond a minute apart it
  // is clearly another clock: "n/a".
  function measureLatency(time) {
    if (typeof time !== "number") return;
    const ms = Date.now() - time / 1000;
    latencyKnown = true;
    if (Math.abs(ms) > 60000) {
      latency = null;
      return;
    }
    latency = latency === null ? ms : latency * 0.9 + ms * 0.1;
  }

  // MARK: - Panels and drawing

  function view(id, create) {
    let v = views.get(id);
    if (v || !create) return v;
    const panel = document.createElement("section");
    panel.className = "panel";
    panel.dataset.device = id;
    const canvas = document.createElement("canvas");
    const legend = document.createElement("div");
    legend.className = "legend";
    panel.append(canvas, legend);
    const main = document.getElementById("panels");
    // Panels in device order.
    const after = [...views.keys()].filter((k) => k < id).sort((a, b) => b - a)[0];
    if (after === undefined) main.prepend(panel);
    else views.get(after).panel.after(panel);
    document.getElementById("empty").hidden = true;
    v = { id, panel, canvas, legend, lo: Infinity, hi: -Infinity, dirty: true, width: 0, height: 0, recent: [], rate: 0 };
    views.set(id, v);
    layout(v);
    return v;
  }

  // The device's drawing area: its axis ranges, in its physical aspect ratio when both axes have
  // a resolution. A device without usable ranges spans what its strokes cover.
  function extent(v) {
    const d = state.devices[v.id];
    if (d && d.x && d.y && d.x.min < d.x.max && d.y.min < d.y.max) {
      const mm = d.x.resolution > 0 && d.y.resolution > 0;
      const w = d.x.max - d.x.min;
      const h = d.y.max - d.y.min;
      return { x0: d.x.min, y0: d.y.min, w, h, aspect: mm ? (w / d.x.resolution) / (h / d.y.resolution) : w / h };
    }
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const s of Object.values(state.strokes)) {
      if (s.device !== v.id) continue;
      for (const [x, y] of s.points) {
        x0 = Math.min(x0, x); x1 = Math.max(x1, x);
        y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    }
    if (x0 === Infinity) return { x0: 0, y0: 0, w: 1, h: 1, aspect: 4 / 3 };
    const w = Math.max(x1 - x0, (y1 - y0) / 4, 1);
    const h = Math.max(y1 - y0, w / 4, 1);
    return { x0: x0 - (w - (x1 - x0)) / 2, y0: y0 - (h - (y1 - y0)) / 2, w, h, aspect: w / h };
  }

  function layout(v) {
    const e = extent(v);
    const main = document.getElementById("panels");
    const padding = parseFloat(getComputedStyle(main).paddingLeft) + parseFloat(getComputedStyle(main).paddingRight);
    const room = Math.max(200, main.clientWidth - padding - 2);
    const tall = Math.max(200, window.innerHeight - 170);
    let width = Math.min(room, 1000);
    let height = width / e.aspect;
    if (height > tall && views.size === 1) {
      height = tall;
      width = height * e.aspect;
    }
    width = Math.round(width);
    height = Math.round(height);
    const ratio = window.devicePixelRatio || 1;
    if (width !== v.width || height !== v.height || ratio !== v.ratio) {
      v.width = width;
      v.height = height;
      v.ratio = ratio;
      v.canvas.style.width = width + "px";
      v.canvas.style.height = height + "px";
      v.canvas.width = Math.round(width * ratio);
      v.canvas.height = Math.round(height * ratio);
      for (const d of detail.values()) if (d.device === v.id) d.path = null;
    }
    v.extent = e;
  }

  function touch(device) {
    const v = view(device, true);
    v.dirty = true;
    scheduleDraw();
  }

  let drawScheduled = false;
  function scheduleDraw() {
    if (drawScheduled) return;
    drawScheduled = true;
    requestAnimationFrame(() => {
      drawScheduled = false;
      for (const v of views.values()) if (v.dirty) draw(v);
    });
  }

  function color(id) {
    return PALETTE[(((id - 1) % PALETTE.length) + PALETTE.length) % PALETTE.length];
  }

  // Stroke widths as `strokes render` chooses them: the stroke's median pressure (or touch
  // major) within the range the device has shown, from 1.5 to 9 px; a pen's normalised pressure
  // directly; 3 px without such an axis. Scaled with the panel (render draws 1000 px wide).
  function lineWidth(v, d) {
    const scale = Math.max(0.6, Math.max(v.width, v.height) / 1000);
    const values = d.widthValues;
    if (!values.length) return 3 * scale;
    const sorted = values.slice().sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1];
    if (d.widthAxis === "normalizedPressure") return (1.5 + 7.5 * median) * scale;
    if (!(v.hi > v.lo)) return 3 * scale;
    return (1.5 + 7.5 * (median - v.lo) / (v.hi - v.lo)) * scale;
  }

  function position(v, x, y) {
    const e = v.extent;
    const fx = Math.min(Math.max((x - e.x0) / e.w, 0), 1);
    const fy = Math.min(Math.max((y - e.y0) / e.h, 0), 1);
    return [fx * v.width, fy * v.height];
  }

  function strokePath(v, s, d) {
    if (d.path && d.pathCount === s.points.length) return d.path;
    const path = new Path2D();
    let n = 0;
    let lx = NaN, ly = NaN;
    for (const [x, y] of s.points) {
      const [px, py] = position(v, x, y);
      if (px === lx && py === ly) continue;
      if (n === 0) path.moveTo(px, py);
      else path.lineTo(px, py);
      lx = px; ly = py; n += 1;
    }
    // A stroke that never left its first pixel: a zero-length segment, which round caps draw as a dot.
    if (n === 1) path.lineTo(lx + 0.01, ly);
    d.path = path;
    d.pathCount = s.points.length;
    return path;
  }

  function draw(v) {
    v.dirty = false;
    layout(v);
    const g = v.canvas.getContext("2d");
    g.setTransform(v.ratio, 0, 0, v.ratio, 0, 0);
    g.clearRect(0, 0, v.width, v.height);
    g.lineCap = "round";
    g.lineJoin = "round";
    const mine = Object.entries(state.strokes).filter(([, s]) => s.device === v.id);
    // Completed strokes in order, then those still down on top.
    mine.sort(([a, sa], [b, sb]) => (sa.state === "live") - (sb.state === "live") || a - b);
    const drawn = [];
    const counts = { ended: 0, cancelled: 0, live: 0 };
    for (const [key, s] of mine) {
      const id = Number(key);
      const d = detail.get(id);
      if (!d || !s.points.length) continue;
      counts[s.state] += 1;
      const w = lineWidth(v, d);
      drawn.push([id, s, d, w]);
      const c = color(id);
      g.globalAlpha = s.state === "cancelled" ? 0.35 : 0.85;
      g.strokeStyle = c;
      g.lineWidth = w;
      g.setLineDash(s.state === "cancelled" ? [2 * w, 3 * w] : []);
      const path = strokePath(v, s, d);
      g.stroke(path);
      // An eraser's stroke is drawn hollow: its outline in the stroke's colour.
      if (d.toolType === "eraser" || d.flags.includes("eraser")) {
        g.globalAlpha = 1;
        g.strokeStyle = getComputedStyle(document.documentElement).getPropertyValue("--sensor").trim() || "#f6f6f4";
        g.lineWidth = Math.max(w * 0.6, 1);
        g.stroke(path);
      }
    }
    g.setLineDash([]);
    for (const [id, s, d, w] of drawn) {
      const c = color(id);
      g.globalAlpha = s.state === "cancelled" ? 0.45 : 1;
      if (!d.clipped) {
        const [x, y] = position(v, s.points[0][0], s.points[0][1]);
        g.beginPath();
        g.arc(x, y, w / 2 + 2, 0, 2 * Math.PI);
        g.fillStyle = c;
        g.fill();
        g.lineWidth = 1;
        g.strokeStyle = "#ffffff";
        g.stroke();
      }
      if (s.state === "live") {
        const last = s.points[s.points.length - 1];
        const [x, y] = position(v, last[0], last[1]);
        g.beginPath();
        g.arc(x, y, w / 2 + 5, 0, 2 * Math.PI);
        g.lineWidth = 1.5;
        g.strokeStyle = c;
        g.stroke();
      }
    }
    g.globalAlpha = 1;
    if (hoverBox.checked) {
      g.strokeStyle = "#8c8c8c";
      g.lineWidth = 1;
      g.setLineDash([3, 3]);
      for (const h of hovering.values()) {
        if (h.device !== v.id || !h.points.length) continue;
        g.beginPath();
        h.points.forEach(([x, y], i) => {
          const [px, py] = position(v, x, y);
          if (i === 0) g.moveTo(px, py);
          else g.lineTo(px, py);
        });
        g.stroke();
        const [hx, hy] = position(v, ...h.points[h.points.length - 1]);
        g.beginPath();
        g.arc(hx, hy, 8, 0, 2 * Math.PI);
        g.stroke();
      }
      g.setLineDash([]);
    }
    writeLegend(v, counts);
  }

  function writeLegend(v, counts) {
    const d = state.devices[v.id];
    const name = d ? "device " + v.id + ": " + d.name + " (" + d.kind + ")" + (d.removed ? ", removed" : "") : "device " + v.id;
    let size = "";
    if (d && d.x && d.y) {
      const ranges = "X " + d.x.min + "…" + d.x.max + ", Y " + d.y.min + "…" + d.y.max;
      size = d.x.resolution > 0 && d.y.resolution > 0
        ? ((d.x.max - d.x.min) / d.x.resolution).toFixed(1) + " × " + ((d.y.max - d.y.min) / d.y.resolution).toFixed(1) + " mm (" + ranges + ")"
        : ranges + ", no resolution: aspect from the axis ranges";
    }
    const total = counts.ended + counts.cancelled + counts.live;
    const parts = [];
    if (counts.ended) parts.push(counts.ended + " ended");
    if (counts.cancelled) parts.push(counts.cancelled + " cancelled");
    if (counts.live) parts.push(counts.live + " still down");
    const content = (total === 1 ? "1 stroke" : total + " strokes") + (parts.length ? ": " + parts.join(", ") : "")
      + " · " + v.rate + " events/s";
    v.legend.replaceChildren();
    const line = (text, cls) => {
      const el = document.createElement("div");
      el.className = cls;
      el.textContent = text;
      v.legend.append(el);
    };
    line(name, "name");
    if (size) line(size, "detail");
    line(content, "content");
  }

  function showStats() {
    const now = performance.now();
    while (recent.length && recent[0] < now - 1000) recent.shift();
    const lat = !latencyKnown ? "–" : latency === null ? "n/a" : latency.toFixed(1) + " ms";
    const el = document.getElementById("stats");
    el.textContent = "seq " + state.lastSeq + " · " + recent.length + " events/s · latency " + lat;
    for (const v of views.values()) {
      while (v.recent.length && v.recent[0] < now - 1000) v.recent.shift();
      if (v.recent.length !== v.rate) {
        v.rate = v.recent.length;
        v.dirty = true;
        scheduleDraw();
      }
    }
    el.title = latencyKnown && latency === null
      ? "latency n/a: the events' time is the kernel's monotonic clock (or a recording's), not this browser's wall clock"
      : "latency: this browser's clock minus the event's time";
  }
  setInterval(showStats, 500);

  // MARK: - Controls

  document.getElementById("clear").addEventListener("click", () => {
    for (const [id, s] of Object.entries(state.strokes)) {
      if (s.state !== "live") {
        delete state.strokes[id];
        detail.delete(Number(id));
      }
    }
    for (const v of views.values()) v.dirty = true;
    scheduleDraw();
  });

  if (token) document.getElementById("download").href = withToken(new URL("render.svg", location.href)).href;

  hoverBox.addEventListener("change", () => {
    hovering.clear();
    // A new subscription with the new event types, resuming where the stream is.
    if (state.transport === "ws" && state.connected) subscribe();
    else dropConnection();
    for (const v of views.values()) v.dirty = true;
    scheduleDraw();
  });

  window.addEventListener("resize", () => {
    for (const v of views.values()) v.dirty = true;
    scheduleDraw();
  });

  connect();
})();
