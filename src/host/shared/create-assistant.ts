import type { ContextType } from "../../agent/module/context-type.js";
import type { AssistantServerOptions } from "../../assistant/assistant-assembly.js";
import { AssistantServer } from "../../assistant/assistant-server.js";
import type { OpenedStorage } from "../../data/network/open-storage.js";
import { PANEL_BINDINGS } from "../../module/builtin/panel/panel-bindings.js";
import type { PanelServer } from "../panel/panel-server.js";
import type { NetworkLink } from "./shared-reloads.js";

/**
 * The assistant both hosts build over what they opened first: the storage, the network link (its services and
 * reload announcements) and the panel (its bindings). A failure closes what was opened, in reverse order, so a
 * start that stops leaves no lock, pool or port behind.
 */
export const createAssistant = async (
  options: Omit<AssistantServerOptions, "storage" | "onReload" | "onPlayerAway"> & {
    readonly storage: OpenedStorage;
    readonly network: NetworkLink;
    readonly panel: PanelServer | undefined;
  },
): Promise<AssistantServer> => {
  const { storage, network, panel, ...rest } = options;
  const closeOpened = async (assistant?: AssistantServer): Promise<void> => {
    await panel?.close();
    await assistant?.close();
    await network.close();
    await storage.close();
  };
  const assistant = await AssistantServer.create({
    ...rest,
    storage,
    services: [
      ...network.services,
      ...(rest.services ?? []),
      ...(panel === undefined ? [] : [[PANEL_BINDINGS, panel] as [ContextType<unknown>, unknown]]),
    ],
    onReload: network.announceReload,
    onPlayerAway: network.announceAway,
  }).catch(async (error: unknown) => {
    await closeOpened();
    throw error;
  });
  await network.attach(assistant).catch(async (error: unknown) => {
    await closeOpened(assistant);
    throw error;
  });
  return assistant;
};
