import type { TelemetrySnapshot } from "../../shared/telemetry/telemetry-history.js";

/**
 * The operators' page charts: the page names the operator's language in `#telemetry[data-locale]`; the texts
 * come from the panel's language files, the data from `/ws/admin` (a snapshot of the metrics registry every 5 s).
 * Charts are SVG drawn here; every label shown is a bounded metric label (route path, model, workflow, code).
 */
const root = document.getElementById("telemetry");

const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (char) => `&#${char.charCodeAt(0)};`);

const COLOURS = ["#2f6fb3", "#d9822b", "#3a9a5b", "#b3432f", "#7a4fb3", "#8a8a2b", "#2b8a8a", "#b32f7a"];

/** A colour square (no inline style: the panel's CSP allows none). */
const swatch = (colour: string): string =>
  `<svg class="swatch" viewBox="0 0 10 10"><rect width="10" height="10" fill="${colour}"/></svg>`;

const W = 560;
const H = 180;
const PAD = { left: 44, bottom: 22, top: 10 };

/** Bars per slot, stacked by series; `slots` label the x axis. */
const stacked = (
  slots: readonly string[],
  series: readonly string[],
  value: (slot: number, series: string) => number,
): string => {
  const totals = slots.map((_, index) => series.reduce((sum, name) => sum + value(index, name), 0));
  const max = Math.max(1, ...totals);
  const width = (W - PAD.left) / Math.max(1, slots.length);
  const plot = H - PAD.top - PAD.bottom;
  const parts: string[] = [];
  slots.forEach((slot, index) => {
    let y = H - PAD.bottom;
    series.forEach((name, colour) => {
      const height = (value(index, name) / max) * plot;
      if (height <= 0) return;
      y -= height;
      parts.push(
        `<rect x="${(PAD.left + index * width + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(1, width - 2).toFixed(1)}" height="${height.toFixed(1)}" fill="${COLOURS[colour % COLOURS.length]}"><title>${escapeHtml(`${slot} ${name}: ${value(index, name)}`)}</title></rect>`,
      );
    });
    if (index % Math.ceil(slots.length / 8) === 0)
      parts.push(
        `<text x="${(PAD.left + index * width).toFixed(1)}" y="${H - 6}">${escapeHtml(slot)}</text>`,
      );
  });
  const legend = series
    .map(
      (name, colour) => `<li>${swatch(COLOURS[colour % COLOURS.length] as string)}${escapeHtml(name)}</li>`,
    )
    .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img"><text x="2" y="${PAD.top + 8}">${max}</text><text x="2" y="${H - PAD.bottom}">0</text>${parts.join("")}</svg><ul class="legend">${legend}</ul>`;
};

/** Lines of p50 and p99 over the minutes. */
const lines = (snapshot: TelemetrySnapshot): string => {
  const points = snapshot.latency;
  const max = Math.max(0.001, ...points.map((point) => point.p99 ?? 0));
  const plot = H - PAD.top - PAD.bottom;
  const step = (W - PAD.left) / Math.max(1, points.length - 1);
  const path = (field: "p50" | "p99"): string =>
    points
      .flatMap((point, index) => {
        const value = point[field];
        if (value === undefined) return [];
        return [
          `${(PAD.left + index * step).toFixed(1)},${(H - PAD.bottom - (value / max) * plot).toFixed(1)}`,
        ];
      })
      .join(" ");
  // a minute alone draws no line: each point is also a dot
  const dots = (field: "p50" | "p99", colour: string): string =>
    path(field)
      .split(" ")
      .filter((point) => point !== "")
      .map((point) => {
        const [x, y] = point.split(",");
        return `<circle cx="${x}" cy="${y}" r="3" fill="${colour}"/>`;
      })
      .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img"><text x="2" y="${PAD.top + 8}">${max}</text><text x="2" y="${H - PAD.bottom}">0</text><polyline fill="none" stroke="${COLOURS[0]}" stroke-width="2" points="${path("p50")}"/><polyline fill="none" stroke="${COLOURS[3]}" stroke-width="2" points="${path("p99")}"/>${dots("p50", COLOURS[0] as string)}${dots("p99", COLOURS[3] as string)}</svg><ul class="legend"><li>${swatch(COLOURS[0] as string)}p50</li><li>${swatch(COLOURS[3] as string)}p99</li></ul>`;
};

/** Horizontal bars of counts by name. */
const bars = (entries: readonly (readonly [string, number])[]): string => {
  const max = Math.max(1, ...entries.map(([, count]) => count));
  return `<table class="bars">${entries
    .map(
      ([name, count]) =>
        `<tr><th>${escapeHtml(name)}</th><td><svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none"><rect width="${((count / max) * 100).toFixed(1)}" height="10" fill="${COLOURS[0]}"/></svg> ${count}</td></tr>`,
    )
    .join("")}</table>`;
};

const render = (snapshot: TelemetrySnapshot, text: (key: string) => string): string => {
  const none = `<p class="empty">${escapeHtml(text("system.panel.telemetry.none"))}</p>`;
  const section = (key: string, body: string): string =>
    `<div class="telemetry-chart" data-chart="${escapeHtml(key)}"><h3>${escapeHtml(text(`system.panel.telemetry.${key}`))}</h3>${body}</div>`;
  const minutes = snapshot.minutes.map((minute) => new Date(minute.at).toISOString().slice(11, 16));
  const routes = [...new Set(snapshot.minutes.flatMap((minute) => Object.keys(minute.routes)))].sort();
  const days = [...new Set(snapshot.modelDays.map((entry) => entry.day))].sort();
  const models = [...new Set(snapshot.modelDays.map((entry) => entry.model))].sort();
  const modelTable = snapshot.modelDays
    .map(
      (entry) =>
        `<tr><td>${escapeHtml(entry.day)}</td><td>${escapeHtml(entry.model)}</td><td>${entry.calls}</td><td>${entry.inputTokens} / ${entry.outputTokens}</td></tr>`,
    )
    .join("");
  const failures = Object.entries(snapshot.failures).sort((a, b) => b[1] - a[1]);
  return [
    `<h2>${escapeHtml(text("system.panel.telemetry.title"))}</h2><p class="hint">${escapeHtml(text("system.panel.telemetry.live"))}</p>`,
    section(
      "requests",
      routes.length === 0
        ? none
        : stacked(minutes, routes, (slot, route) => snapshot.minutes[slot]?.routes[route] ?? 0),
    ),
    section("latency", snapshot.latency.some((point) => point.p99 !== undefined) ? lines(snapshot) : none),
    section(
      "model",
      days.length === 0
        ? none
        : `${stacked(days, models, (slot, model) => snapshot.modelDays.find((entry) => entry.day === days[slot] && entry.model === model)?.calls ?? 0)}<table><thead><tr><th></th><th></th><th>${escapeHtml(text("system.panel.telemetry.calls"))}</th><th>${escapeHtml(text("system.panel.telemetry.tokens"))}</th></tr></thead><tbody>${modelTable}</tbody></table>`,
    ),
    section("failures", failures.length === 0 ? none : bars(failures)),
    section(
      "workflows",
      snapshot.workflows.length === 0
        ? none
        : bars(snapshot.workflows.map((entry) => [entry.workflow, entry.requests] as const)),
    ),
    section("deliveries", `<p class="figure">${snapshot.unconfirmedDeliveries}</p>`),
    snapshot.gateway === undefined
      ? ""
      : section(
          "gateway",
          `<p class="figure">${escapeHtml(text("system.panel.telemetry.players"))}: ${snapshot.gateway.players} · ${escapeHtml(text("system.panel.telemetry.rcon_p99"))}: ${snapshot.gateway.rconP99 === undefined ? "–" : `${snapshot.gateway.rconP99} s`}</p>${bars(Object.entries(snapshot.gateway.rcon))}`,
        ),
  ].join("");
};

const start = async (element: HTMLElement): Promise<void> => {
  const locale = element.dataset.locale === "zh_cn" ? "zh_cn" : "en_us";
  const texts = (await (await fetch(`/lang/${locale}.json`)).json()) as Record<string, string>;
  const text = (key: string): string => texts[key] ?? key;
  const socket = new WebSocket(`${location.origin.replace(/^http/u, "ws")}/ws/admin`);
  socket.addEventListener("message", (event) => {
    element.innerHTML = render(JSON.parse(String(event.data)) as TelemetrySnapshot, text);
    element.dataset.updated = String(Date.now());
  });
};

if (root !== null) void start(root);
