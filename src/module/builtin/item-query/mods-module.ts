import { z } from "zod";
import { AgentFailure } from "../../../agent/agent-failure.js";
import { AgentResult } from "../../../agent/agent-result.js";
import { present } from "../../../agent/card/card-text.js";
import { AgentCommand } from "../../../agent/command/agent-command.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import { AbstractAgentModule } from "../../../agent/module/abstract-agent-module.js";
import { ActionType } from "../../../agent/module/action-type.js";
import { ModuleRouting } from "../../../agent/module/module-routing.js";
import { RoutingProfile } from "../../../agent/module/routing-profile.js";
import type { ChoiceLabel } from "../../../agent/routing/suggestions.js";
import type { AnyTool, Tool } from "../../../agent/tool/tool.js";
import type { ModSummary, ServerMods } from "../../../game/data/server-mods.js";
import type { ItemTextIndex } from "../../../game/tools/item-text-index.js";
import { MODS_LIST, type ModsOutput, type ModsToolInput } from "../../../game/tools/mod-tools.js";
import { codec } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import { MOD_CARD, MOD_NOT_FOUND_CARD, MODS_ACTION_ID, MODS_CARD } from "./mods-cards.js";

/** No mod named: the list (`page`, from 1); a mod's id or name: that mod and its items. */
export interface ModsInput {
  readonly mod?: string;
  readonly page?: number;
}
export const MODS_ACTION = ActionType.of<ModsInput>(
  MODS_ACTION_ID,
  codec(
    z
      .object({
        mod: z.string().trim().min(1).max(64).optional(),
        page: z.number().int().min(1).max(1000).optional(),
      })
      .strict() as z.ZodType<ModsInput>,
  ),
);

/** How players ask which mods the server runs. */
const MODS_SAMPLES = {
  zh: [
    "服务器有哪些模组",
    "装了什么模组",
    "模组列表",
    "这个整合包有哪些mod",
    "用了哪些mod",
    "查看模组",
    "服务器的模组有哪些",
    "这个服有哪些mod",
    "有什么模组",
    "服务器装的mod",
    "模组清单",
    "整合包里都有什么模组",
    "这里加了哪些模组",
    "列出所有模组",
    "模组的版本",
    "模组都有啥",
    "看看装了哪些mod",
    "一共装了多少个模组",
  ],
  en: [
    "what mods are installed",
    "which mods does this pack have",
    "mod list",
    "list the mods",
    "what mods are in this modpack",
    "show me the mods",
    "what mods do you run",
    "installed mods",
    "what modpack is this",
    "which mods are used",
    "list of mods and versions",
    "what mods do i need",
    "show the modlist",
    "how many mods does this pack have",
    "mods in this pack",
    "what mods are loaded",
  ],
} as const;

/** The topic: a text that says nothing of mods or the modpack is not about them. */
const MODS_TOPIC =
  /\bmods\b|\bmod ?list\b|\bmodpack\b|模组|整合包|\bmods?(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])mods?\b/i;
/**
 * Not the server's list: moderators ("who are the mods", "is a mod online"), the rules on a player's own mods ("are
 * mods allowed here", "本服能用什么模组"), or how to install, update or fix them ("how do I install the mods",
 * "模组怎么装", "为什么模组不显示"): the knowledge base answers those.
 */
const ELSEWHERE = new RegExp(
  [
    String.raw`\bwho\b|\bonline\b|\bstaff\b|\badmins?\b|\bmoderat|\bask (a|the) mods?\b|管理`,
    String.raw`\ballow|\bban(ned|s)?\b|\bcan (i|we) use\b|\bpermitted\b|\brules?\b|允许|能用|可以用|能不能用|禁止|禁用|规则`,
    String.raw`\binstall(ing)?\b|\bdownload|\bupdat|\bupgrad|\bremov|\buninstall|\bdelete|\bworks?\b|\bcrash|\bbroken\b`,
    String.raw`\bclient[- ]?side|\bserver[- ]?side|\bhow big\b|\bsize\b|\bwhy\b`,
    "安装|怎么装|下载|更新|删除|卸载|为什么|有什么用|不显示|崩溃|客户端|大小",
  ].join("|"),
  "i",
);

/** A text about the server's mods: it names them, and neither moderators nor the rules on a player's own. */
const aboutMods = (text: string): boolean => MODS_TOPIC.test(text) && !ELSEWHERE.test(text);
/** Whether a mod is there: "is create installed", "does the server have mekanism", "服务器有create吗". */
const INSTALLED = /\binstalled\b|\bhave\b|\bhas\b|\bis there\b|\bany\b|有|装|用了/i;

/** Whether `word` stands in `text` as a word of its own (Chinese characters around it count as its edges). */
const hasWord = (text: string, word: string): boolean => {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1] ?? " ";
    const after = text[at + word.length] ?? " ";
    if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
  }
  return false;
};

const LOADERS: Readonly<Record<string, string>> = { forge: "Forge", neoforge: "NeoForge", fabric: "Fabric" };

export interface ModsModuleOptions {
  readonly owner: Identifier;
  readonly mods: ServerMods;
  readonly tool: Tool<ModsToolInput, ModsOutput>;
  /** Item mentions: "which mod adds andesite alloy" is the item's question (its card names the mod). */
  readonly items: ItemTextIndex;
}

/**
 * `system:mods`: the mods the server runs (`/system mods`, "服务器有哪些模组"), or one of them with its items
 * (`/system mods create`). Read-only, one read tool, so the local router may run it directly.
 */
export class ModsModule extends AbstractAgentModule<ModsInput> {
  constructor(private readonly options: ModsModuleOptions) {
    super({
      action: MODS_ACTION,
      writes: "none",
      description: "List the mods this server runs, or show one mod with the items it adds.",
      tools: [options.tool] as unknown as readonly AnyTool[],
      owner: options.owner,
      routing: ModuleRouting.defaults<ModsInput>()
        .command(
          AgentCommand.argument<ModsInput>(
            {
              spec: "[mod]",
              // mod ids that start with what was typed (`/system mods cr` → create, createaddition)
              suggest: (typed) => {
                const start = typed.trim().toLowerCase();
                return options.mods
                  .list()
                  .map((mod) => mod.id)
                  .filter((id) => id.startsWith(start))
                  .sort();
              },
            },
            (text) => (text.trim() === "" ? {} : { mod: text.trim().slice(0, 64) }),
            "mods",
            "模组",
          ),
        )
        .semantic(
          RoutingProfile.read<ModsInput>(
            (text) => this.#extract(text),
            MODS_SAMPLES.zh,
            MODS_SAMPLES.en,
          ).about((text) => this.#about(text)),
        )
        .choice("system.mods.choice"),
    });
  }

  /** What a choice button for this input says: "Mod: Create" / "模组：Create", else the list's label. */
  choiceLabel(input: unknown): ChoiceLabel | undefined {
    const id = (input as Partial<ModsInput> | undefined)?.mod;
    const mod = typeof id === "string" ? this.options.mods.find(id) : undefined;
    return mod === undefined
      ? undefined
      : { labelKey: "system.mods.choice.named", labelArgs: [mod.name, mod.name] };
  }

  /** A text about the server's mods, or asking whether one is there ("is create installed", "服务器有create吗"). */
  #about(text: string): boolean {
    return (
      aboutMods(text) || (INSTALLED.test(text) && !ELSEWHERE.test(text) && this.#named(text) !== undefined)
    );
  }

  /** A text about mods: the one mod it names as a word, else the list; undefined when it names an item. */
  #extract(text: string): ModsInput | undefined {
    if (!this.#about(text) || this.options.items.find(text) !== undefined) return undefined;
    const named = this.#named(text);
    return named === undefined ? {} : { mod: named.id };
  }

  /** The mod (one that adds items) a text names by its id or name. */
  #named(text: string): ModSummary | undefined {
    const lower = text.normalize("NFKC").toLowerCase();
    return this.options.mods
      .list()
      .find(
        (mod) => mod.items.length > 0 && (hasWord(lower, mod.id) || hasWord(lower, mod.name.toLowerCase())),
      );
  }

  override async run(input: ModsInput, context: ExecutionContext): Promise<AgentResult> {
    if (input.mod !== undefined) context.checkInput(input.mod);
    const answer = await context.tool(
      MODS_LIST,
      "mods",
      input.mod === undefined ? { page: input.page ?? 1 } : { mod: input.mod },
    );
    const chinese = context.locale.toLowerCase().startsWith("zh");
    if (input.mod === undefined)
      return AgentResult.success(
        undefined,
        present(
          MODS_CARD.card({
            mods: answer.mods.map(({ id, name, version, items }) => ({ id, name, version, items })),
            page: answer.page,
            pages: answer.pages,
            total: answer.total,
          }),
        ),
      );
    const found = answer.found;
    if (found === undefined)
      return AgentResult.error(AgentFailure.NOT_FOUND.with(input.mod)).withPresentation(
        present(
          MOD_NOT_FOUND_CARD.card({
            query: input.mod,
            suggestions: answer.suggestions.map(({ id, name }) => ({ id, name })),
          }),
        ),
      );
    return AgentResult.success(
      undefined,
      present(
        MOD_CARD.card({
          id: found.id,
          name: found.name,
          version: found.version,
          loader: LOADERS[found.loader] ?? found.loader,
          items: found.items,
          names: found.names.map((item) => ({
            id: item.id,
            name: chinese ? (item.zh_cn ?? item.en_us) : item.en_us,
          })),
        }),
      ),
    );
  }
}
