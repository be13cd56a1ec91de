// The snapshot types belong to the assistant layer (game tools read them); the host produces them.
export * from "../../assistant/game-snapshots.js";
