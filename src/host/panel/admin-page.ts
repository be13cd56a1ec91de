import type { AssistantServer } from "../../assistant/assistant-server.js";
import type { UsageLine } from "../../module/builtin/core/core-services.js";

/** Days of usage the chart shows (newest last). */
const DAYS = 14;
const CHART = { width: 720, height: 220, left: 48, bottom: 28, top: 12 };

const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (char) => `&#${char.charCodeAt(0)};`);

/** A stable colour per player name. */
const colourOf = (name: string): string => {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${hash % 360} 55% 45%)`;
};

/** Model calls per day, stacked by player, as an SVG drawn here (no script runs on the page). */
export const usageChart = (lines: readonly UsageLine[]): string => {
  const days = [...new Set(lines.map((line) => line.day))].sort().slice(-DAYS);
  if (days.length === 0) return '<p class="empty">No model calls recorded yet.</p>';
  const totals = days.map((day) =>
    lines.filter((line) => line.day === day).reduce((sum, line) => sum + line.calls, 0),
  );
  const max = Math.max(1, ...totals);
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = (CHART.width - CHART.left) / days.length;
  const bars: string[] = [];
  days.forEach((day, index) => {
    let y = CHART.height - CHART.bottom;
    const x = CHART.left + index * slot + slot * 0.15;
    for (const line of lines.filter((candidate) => candidate.day === day)) {
      const height = (line.calls / max) * plotHeight;
      y -= height;
      bars.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${height.toFixed(1)}" fill="${colourOf(line.player)}"><title>${escapeHtml(`${line.player} · ${day}: ${line.calls} calls, ${line.inputTokens} in / ${line.outputTokens} out tokens`)}</title></rect>`,
      );
    }
    bars.push(
      `<text x="${(x + slot * 0.35).toFixed(1)}" y="${CHART.height - 8}" text-anchor="middle">${escapeHtml(day.slice(5))}</text>`,
    );
  });
  const players = [
    ...new Set(lines.filter((line) => days.includes(line.day)).map((line) => line.player)),
  ].sort();
  const legend = players
    .map(
      (player) =>
        `<li><svg class="swatch" viewBox="0 0 10 10"><rect width="10" height="10" fill="${colourOf(player)}"/></svg>${escapeHtml(player)}</li>`,
    )
    .join("");
  return [
    `<svg class="chart" role="img" aria-label="Model calls per player per day" viewBox="0 0 ${CHART.width} ${CHART.height}">`,
    `<text x="4" y="${CHART.top + 10}">${max}</text><text x="4" y="${CHART.height - CHART.bottom}">0</text>`,
    `<line x1="${CHART.left - 4}" x2="${CHART.width}" y1="${CHART.height - CHART.bottom}" y2="${CHART.height - CHART.bottom}" stroke="#999"/>`,
    ...bars,
    "</svg>",
    `<ul class="legend">${legend}</ul>`,
  ].join("");
};

const table = (caption: string, head: readonly string[], rows: readonly (readonly string[])[]): string =>
  rows.length === 0
    ? `<h2>${escapeHtml(caption)}</h2><p class="empty">None.</p>`
    : `<h2>${escapeHtml(caption)}</h2><table><thead><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join("")}</tr></thead><tbody>${rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`)
        .join("")}</tbody></table>`;

/**
 * The operators' page of the panel: model usage per player per day as a chart (and its table), who has AI, feature
 * grants and modes, recent event tasks, and deliveries waiting for an admin. Read-only: changes are the admin
 * commands in game (`/system grant`, `/system mode`, `/system deliveries`), which check permissions as always.
 */
export const renderAdminPage = (
  assistant: AssistantServer,
  admin: string,
  view: { readonly locale: string; readonly charts: boolean } = { locale: "en_us", charts: false },
): string => {
  const { infrastructure, core, events } = assistant;
  const name = (uuid: string): string => infrastructure.players.nameOf(uuid) ?? uuid;
  const usage = core.usage(undefined);
  const access = infrastructure.access.get();
  const players = Object.entries(access.players).map(([uuid, entry]) => [
    name(uuid),
    entry.ai === undefined ? "default" : entry.ai ? "on" : "off",
    Object.entries(entry.features ?? {})
      .map(([feature, granted]) => `${granted ? "+" : "−"}${feature}`)
      .join(" "),
    entry.mode ?? "",
    entry.chosenMode ?? "",
  ]);
  const time = (millis: number): string => new Date(millis).toISOString().slice(0, 16).replace("T", " ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>System · admin</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<link rel="stylesheet" href="/panel.css"></head>
<body class="admin"><header><h1>System · admin</h1><span id="player">${escapeHtml(admin)}</span><a href="/">Panel</a></header>
<main>
${
  view.charts
    ? `<section id="telemetry" class="telemetry" data-locale="${escapeHtml(view.locale)}"></section><script type="module" src="/admin.js"></script>`
    : `<p class="hint">${escapeHtml(assistant.text(view.locale, "system.panel.telemetry.off"))}</p>`
}
<h2>Model calls per player per day</h2>
${usageChart(usage)}
${table(
  "Usage",
  ["day", "player", "calls", "input tokens", "output tokens"],
  usage
    .slice(0, 60)
    .map((line) => [
      line.day,
      line.player,
      String(line.calls),
      String(line.inputTokens),
      String(line.outputTokens),
    ]),
)}
<h2>Access</h2>
<p>AI by default: <strong>${access.aiByDefault ? "on" : "off"}</strong> · default mode: <strong>${escapeHtml(access.defaultMode)}</strong> · modes players may choose: <strong>${escapeHtml(access.allowedModes.join(", "))}</strong></p>
${table("Grants and modes", ["player", "AI", "features", "mode (admin)", "mode (chosen)"], players)}
${table(
  "Deliveries needing resolution",
  ["id", "workflow", "player", "since"],
  events
    .unconfirmed()
    .map((task) => [task.id.slice(0, 8), task.type, name(task.playerId), time(task.updatedAt)]),
)}
${table(
  "Recent event tasks",
  ["state", "rule", "workflow", "event", "player", "updated"],
  events
    .recent(15)
    .map((task) => [
      task.state,
      task.rule ?? "",
      task.type,
      task.eventType ?? "",
      name(task.playerId),
      time(task.updatedAt),
    ]),
)}
<p class="hint">Resolve deliveries with <code>/system deliveries redeliver|done &lt;id&gt;</code>; change grants and modes with <code>/system grant</code>, <code>/system revoke</code> and <code>/system mode</code> in game.</p>
</main></body></html>`;
};
