import type { CommandIdentity } from "../../../agent/command/command-source.js";
import type { ExecutionContext } from "../../../agent/execution/execution-context.js";
import type { AnyAgentModule } from "../../../agent/module/agent-module.js";
import type { ModuleRegistry } from "../../../agent/module/module-registry.js";
import type { Availability } from "../../../agent/routing/routing-player.js";
import type { Json } from "../../../util/codec.js";
import type { Identifier } from "../../../util/identifier.js";
import type { Languages } from "../../../util/language.js";
import { EXECUTION_MODES } from "../../permissions/execution-mode.js";
import type { HelpCardEntry } from "./help-card.js";

export interface HelpLinesOptions {
  readonly modules: () => ModuleRegistry;
  readonly languages: Languages | undefined;
  readonly permissionLevel: (playerId: string) => number;
  readonly availability?: Availability | undefined;
  readonly context: Pick<ExecutionContext, "playerId" | "features" | "locale">;
  /** The admin commands (`/system help admin`) instead of the player's features. */
  readonly admin: boolean;
}

/** The translation key of a module's help description: `system.help.module.<namespace>.<path>`. */
export const helpDescriptionKey = (id: Identifier): string =>
  `system.help.module.${id.namespace}.${id.path.replace(/\//g, ".")}`;

/** The translation key of a feature's help line (several workflows on one line): `system.help.feature.<id>`. */
const featureKey = (owner: string): string => `system.help.feature.${owner.replace(/[:/]/g, ".")}`;

const CJK = /[\u3400-\u9fff]/u;
const ROOT = "/system";
/** At most this many forms of one workflow on a help line. */
const FORMS_PER_WORKFLOW = 1;

/**
 * A form as help shows it: alternatives in the player's language when a group mixes both (`done|redeliver`, not
 * `done|redeliver|已处理|补发`), and in their natural order where the order means something (simple, routing, ask, full).
 */
const shownForm = (form: string, chinese: boolean): string =>
  form.replace(/[^\s<>[\]|]+(?:\|[^\s<>[\]|]+)+/gu, (group) => {
    const all = group.split("|");
    const own = all.filter((word) => CJK.test(word) === chinese);
    const words = own.length > 0 ? own : all;
    if (!words.every((word) => (EXECUTION_MODES as readonly string[]).includes(word))) return words.join("|");
    return EXECUTION_MODES.filter((mode) => words.includes(mode)).join("|");
  });

/** The line of the engine's own workflows (mode, settings, history), which no feature owns. */
const CORE_LINE = "system:core";
/** Help does not list itself (the player is reading it). */
const HELP = "system:help";

interface Forms {
  readonly mine: boolean;
  readonly player: readonly string[];
  readonly admin: readonly string[];
}

/** Each workflow's command forms under its first alias in the player's language (any alias when none is). */
const formsByWorkflow = (
  registry: ModuleRegistry,
  player: CommandIdentity,
  full: CommandIdentity,
  chinese: boolean,
): Map<string, Forms> => {
  const commands = registry.commands();
  const forms = new Map<string, Forms>();
  for (const [alias, module] of commands.aliases()) {
    const id = module.id.toString();
    const mine = CJK.test(alias) === chinese;
    const known = forms.get(id);
    if (known !== undefined && (known.mine || !mine)) continue;
    const own = commands.usages(alias, player).map((form) => shownForm(form, chinese));
    const all = commands.usages(alias, full).map((form) => shownForm(form, chinese));
    if (all.length === 0) continue;
    forms.set(id, { mine, player: own, admin: all.filter((form) => !own.includes(form)) });
  }
  return forms;
};

/** What a help line's button runs: the first of its plain commands that parses, else its example. */
const runnable = async (
  registry: ModuleRegistry,
  module: AnyAgentModule,
  forms: readonly string[],
  example: string | undefined,
  identity: CommandIdentity,
): Promise<{ readonly input: Json; readonly runs: string } | undefined> => {
  for (const form of forms) {
    if (/[<[|]/u.test(form)) continue;
    const parsed = await registry.commands().parse(`${ROOT} ${form}`, identity);
    if (parsed.kind === "action" && parsed.module.id.equals(module.id))
      return { input: module.action.codec.encode(parsed.action.input), runs: `${ROOT} ${form}` };
  }
  const extractor = registry.routing(module.id).profile?.extractor;
  if (example === undefined || extractor === undefined) return undefined;
  let input: unknown;
  try {
    input = extractor(example);
  } catch {
    input = undefined;
  }
  const decoded = input === undefined ? undefined : module.action.codec.decode(input);
  return decoded?.success === true
    ? { input: module.action.codec.encode(decoded.value), runs: `“${example}”` }
    : undefined;
};

/**
 * One player's help, generated from the registries through the same availability filter as routing: one line per
 * feature (its workflows' commands in the player's language), each with the input its button runs when one can
 * run as it stands; with `admin`, one line per workflow that has admin commands, and only those commands.
 */
export const helpLines = async (
  options: HelpLinesOptions,
): Promise<{ readonly entries: HelpCardEntry[]; readonly hasAdmin: boolean }> => {
  const registry = options.modules();
  const { playerId, features, locale } = options.context;
  const chinese = locale.toLowerCase().startsWith("zh");
  const full = { playerId, permissionLevel: options.permissionLevel(playerId), features };
  const forms = formsByWorkflow(registry, { ...full, permissionLevel: 0 }, full, chinese);
  const translate = (key: string): string | undefined =>
    options.languages?.has("en_us", key) === true ? options.languages.format(locale, key, []) : undefined;
  const lines = new Map<string, { modules: AnyAgentModule[]; usages: string[] }>();
  let hasAdmin = false;
  for (const module of registry.values()) {
    if (!module.interactive || !registry.usable(module.id, features)) continue;
    const id = module.id.toString();
    if (id === HELP) continue;
    if (options.availability?.(playerId, id) === false) continue;
    const own = forms.get(id);
    if ((own?.admin.length ?? 0) > 0) hasAdmin = true;
    const shown = (options.admin ? own?.admin : own?.player) ?? [];
    if (shown.length === 0 && (options.admin || registry.routing(module.id).selection === "structured_only"))
      continue;
    // a feature's workflows share a line; admin commands get a line per workflow
    const key = options.admin ? id : (module.owner?.toString() ?? CORE_LINE);
    const line = lines.get(key) ?? { modules: [], usages: [] };
    line.modules.push(module);
    // a player's line shows each workflow's fullest form (`mode simple|routing|ask|full`, not `mode` as well)
    const picked = options.admin
      ? shown.slice(0, 4)
      : [...shown].sort((left, right) => right.length - left.length).slice(0, FORMS_PER_WORKFLOW);
    for (const form of picked) line.usages.push(line.usages.length === 0 ? `${ROOT} ${form}` : form);
    lines.set(key, line);
  }
  const entries: HelpCardEntry[] = [];
  for (const [key, line] of lines) {
    // a workflow reached by plain text only shares its feature's line when the feature has commands
    const modules =
      line.usages.length === 0
        ? line.modules
        : line.modules.filter(
            (module) => (forms.get(module.id.toString())?.player.length ?? 0) > 0 || options.admin,
          );
    const first = modules[0];
    if (first === undefined) continue;
    const routing = registry.routing(first.id);
    const samples = chinese ? routing.profile?.zh : routing.profile?.en;
    const example = samples?.[0];
    const descriptionKey =
      !options.admin && modules.length > 1 && translate(featureKey(key)) !== undefined
        ? featureKey(key)
        : helpDescriptionKey(first.id);
    const translated = translate(descriptionKey);
    let run: Awaited<ReturnType<typeof runnable>>;
    if (!options.admin)
      for (const module of modules) {
        const own = forms.get(module.id.toString())?.player ?? [];
        const moduleSamples = chinese
          ? registry.routing(module.id).profile?.zh
          : registry.routing(module.id).profile?.en;
        run = await runnable(registry, module, own, moduleSamples?.[0], full);
        if (run !== undefined) {
          entries.push(
            entry(module, line.usages, descriptionKey, translated, first.description, example, run),
          );
          break;
        }
      }
    if (run === undefined)
      entries.push(
        entry(first, line.usages, descriptionKey, translated, first.description, example, undefined),
      );
  }
  return { entries: entries.slice(0, 64), hasAdmin };
};

const entry = (
  module: AnyAgentModule,
  usages: readonly string[],
  descriptionKey: string,
  translated: string | undefined,
  description: string,
  example: string | undefined,
  run: { readonly input: Json; readonly runs: string } | undefined,
): HelpCardEntry => ({
  moduleId: module.id.toString(),
  usages: usages.slice(0, 16),
  ...(translated === undefined ? {} : { descriptionKey }),
  description,
  descriptionText: translated ?? description,
  ...(example === undefined ? {} : { example }),
  ...(run === undefined ? {} : { input: run.input, runs: run.runs }),
});
