// The snapshot types belong to the assistant layer (game tools read them); the host produces them.
export * from "../../game/game-snapshots.js";
