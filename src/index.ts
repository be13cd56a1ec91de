// `system`: the engine contracts, feature builders and game services an extension imports. Cards are in
// `system/cards`, test helpers in `system/testing`.
export * from "./agent/index.js";
export * from "./game/index.js";
export * from "./module/index.js";
