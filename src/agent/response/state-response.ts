import { Identifier } from "../../util/identifier.js";
import { STRING, StreamCodec, VARINT } from "../../util/stream-codec.js";
import { PREFERENCES_STREAM_CODEC } from "../request/preferences-request.js";
import type { ConversationPreferences } from "../storage/conversation-memory.js";
import type { AgentResponse } from "./agent-response.js";

/** One command the player may run now: its literal and a usage line (both from the command registry). */
export interface CommandEntry {
  readonly literal: string;
  readonly usage: string;
}

/** Numeric id tables (index = numeric id) of the server's frozen registries, for the client to map ids. */
export interface RegistryTables {
  readonly requestTypes: readonly string[];
  readonly responseTypes: readonly string[];
  readonly cardTypes: readonly string[];
}

const ID_TABLE = STRING(256).list(4096);

export const REGISTRY_TABLES_STREAM_CODEC: StreamCodec<RegistryTables> = StreamCodec.struct({
  requestTypes: ID_TABLE,
  responseTypes: ID_TABLE,
  cardTypes: ID_TABLE,
});

/** Fields of a StateResponse. */
export interface StateSnapshot {
  readonly protocolVersion: number;
  /** Commands available to this player (installed, enabled, permitted). */
  readonly commands: readonly CommandEntry[];
  /** Completion candidates for the input box (roots and aliases). */
  readonly completions: readonly string[];
  readonly preferences: ConversationPreferences;
  readonly registries: RegistryTables;
}

/** A snapshot of what this player can do now, answering ControlRequest.STATE and preference changes. */
export class StateResponse implements AgentResponse, StateSnapshot {
  static readonly TYPE = Identifier.parse("system:state");

  readonly type = StateResponse.TYPE;
  readonly protocolVersion: number;
  readonly commands: readonly CommandEntry[];
  readonly completions: readonly string[];
  readonly preferences: ConversationPreferences;
  readonly registries: RegistryTables;

  constructor(snapshot: StateSnapshot) {
    this.protocolVersion = snapshot.protocolVersion;
    this.commands = snapshot.commands;
    this.completions = snapshot.completions;
    this.preferences = snapshot.preferences;
    this.registries = snapshot.registries;
  }

  static readonly STREAM_CODEC: StreamCodec<StateResponse> = StreamCodec.struct({
    protocolVersion: VARINT,
    commands: StreamCodec.struct({ literal: STRING(256), usage: STRING(1024) }).list(1024),
    completions: STRING(256).list(4096),
    preferences: PREFERENCES_STREAM_CODEC,
    registries: REGISTRY_TABLES_STREAM_CODEC,
  }).map(
    (snapshot) => new StateResponse(snapshot),
    (state) => ({
      protocolVersion: state.protocolVersion,
      commands: state.commands,
      completions: state.completions,
      preferences: state.preferences,
      registries: state.registries,
    }),
  );
}
