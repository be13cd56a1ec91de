import { z } from "zod";
import { registerCardType } from "../../../agent/card/card-text.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import { GameContextTypes } from "../../../game/context-types.js";
import { codec } from "../../../util/codec.js";
import { Identifier } from "../../../util/identifier.js";
import type { ServerModule, ServerModuleContext, ServerModuleType } from "../../server-module.js";
import { AccessModule, ReloadModule, ResetModule, UsageModule } from "./core-module.js";
import { CORE_SERVICES } from "./core-services.js";
import { FeatureModule } from "./feature-commands.js";
import { ModeModule } from "./mode-module.js";
import { ModeShowModule } from "./mode-show-module.js";
import { CancelModule, ClearModule, SettingsModule } from "./player-commands.js";
import { RestoreModule } from "./restore-module.js";
import { REVOKE_CARD } from "./revoke-card.js";

/** Greetings, thanks and small talk: a reject class, so they never route directly anywhere. */
const CHATTER = "system:chatter";
const CHATTER_SAMPLES = RoutingProfile.hints(
  ["你好", "谢谢", "哈哈哈", "在吗", "晚安", "早上好", "你好呀机器人", "好的", "辛苦了"],
  ["hi", "hello there", "thanks", "thank you", "lol", "good night", "good morning", "ok cool", "nice"],
);

/** Requests to act on the world or on players (give, teleport, weather, ban): never a direct read route. */
const GAME_ACTIONS = "system:game_action";
const GAME_ACTION_SAMPLES = RoutingProfile.hints(
  [
    "给我一组钻石",
    "传送我回家",
    "把我送到出生点",
    "把时间调成白天",
    "让天气变晴",
    "给我管理员权限",
    "封禁这个玩家",
    "帮我把这些怪清掉",
    "给我创造模式",
    "把这个人踢出服务器",
    "禁言他",
  ],
  [
    "give me a stack of iron",
    "teleport me home",
    "send me back to spawn",
    "set the time to day",
    "turn off the rain",
    "make me an admin",
    "ban that player",
    "kill all the zombies near me",
    "put me in creative mode",
    "kick that player out",
    "mute him",
  ],
);

/**
 * The core feature: admin commands (grant, revoke, reset, usage, reload, mode) and player commands
 * (settings, clear, cancel). Infrastructure: its workflows have no owner, so no grant can take them away;
 * admin nodes `require` the operator level and the modules check it again at run time.
 */
class CoreFeature implements ServerModule {
  readonly type = CORE_FEATURE_TYPE.id;
  readonly enabledByDefault = true;
  readonly toolModule = false;
  readonly infrastructure = true;

  constructor(readonly id: Identifier) {}

  install(context: ServerModuleContext): void {
    const services = context.services.get(CORE_SERVICES);
    registerCardType(context.services.get(GameContextTypes.CARDS), REVOKE_CARD);
    for (const module of [
      new AccessModule(services, true),
      new AccessModule(services, false),
      new ResetModule(services),
      new UsageModule(services),
      new ReloadModule(services),
      new RestoreModule(services),
      new FeatureModule(services),
      new ModeModule(services),
      new ModeShowModule(services),
      new SettingsModule(services),
      new ClearModule(services),
      new CancelModule(services),
    ])
      context.engine.registerModule(module);
    context.engine.reject(CHATTER, CHATTER_SAMPLES);
    context.engine.reject(GAME_ACTIONS, GAME_ACTION_SAMPLES);
  }

  storages(): [] {
    return [];
  }
}

export const CORE_FEATURE_TYPE: ServerModuleType<Record<string, never>> = {
  id: Identifier.parse("system:core"),
  config: codec(z.object({}).strict()) as ServerModuleType<Record<string, never>>["config"],
  create: (id) => new CoreFeature(id),
};
