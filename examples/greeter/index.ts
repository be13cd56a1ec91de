// The extension's entry: the feature type `greeter:greeter` and the data pack whose entry installs it.
import { fileURLToPath } from "node:url";
import { codec } from "system/agent";
import { GameContextTypes, ITEM_STACK } from "system/game";
import { defineExtension, defineFeature } from "system/module";
import { z } from "zod";
import { GiftModule, giftStorage, giveGiftTool } from "./gift.js";
import { GreetModule, greetingTool } from "./greet.js";

/** An entry's `"server"` object: what this configuration greets with and gives. */
const CONFIG = codec(
  z
    .object({
      greeting: z.string().min(1).max(100),
      gift: z.array(ITEM_STACK.schema).min(1).max(4),
    })
    .strict(),
);

/** `greeter:greeter`: each data-pack entry of this type is one configuration (its id owns what it registers). */
export const GREETER = defineFeature({
  id: "greeter:greeter",
  config: CONFIG,
  create: ({ id, config }) => {
    const storage = giftStorage(id);
    return {
      storages: [storage],
      install: (context) => {
        const bridge = context.services.get(GameContextTypes.GAME_BRIDGE);
        const store = context.services.get(GameContextTypes.AGENT_STORE);
        const greeting = greetingTool({ greeting: config.greeting, bridge });
        context.engine.registerTool(greeting);
        context.engine.registerModule(new GreetModule(greeting));
        const tool = giveGiftTool(bridge);
        context.engine.registerModule(new GiftModule({ tool, store, storage, items: config.gift }));
      },
    };
  },
});

export const systemExtension = defineExtension({
  types: [GREETER],
  dataPack: fileURLToPath(new URL("./pack", import.meta.url)),
});
