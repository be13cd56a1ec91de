import type { SemanticSettings } from "../agent/routing/semantic-config.js";

/** One line of a labelled set: the text, whether it should be answered directly, and by which module. */
export interface LabelledLine {
  readonly text: string;
  readonly path: "direct" | "fallback";
  /** The module that serves it (`-` in the file: none). */
  readonly module: string | undefined;
  readonly line: number;
}

/** How one text routed: an exact command, else the local match measured with every threshold at zero. */
export interface RoutedLine {
  readonly text: string;
  /** The module of an exact command (null: a command error); undefined when the text is not a command. */
  readonly command: string | null | undefined;
  /** The module routed directly at zero thresholds (all other conditions held). */
  readonly direct: string | undefined;
  readonly top: string | undefined;
  readonly similarity: number;
  readonly margin: number;
  readonly coverage: number;
}

export type Thresholds = Pick<SemanticSettings, "minSimilarity" | "minMargin" | "minCoverage">;

/** Per module: direct routes that were right, wrong direct routes landing on it, and the lines expecting it. */
export interface ModuleFigures {
  readonly module: string;
  readonly correct: number;
  readonly wrong: number;
  readonly expected: number;
  readonly precision: number;
  readonly recall: number;
}

export interface Evaluation {
  readonly thresholds: Thresholds;
  readonly modules: readonly ModuleFigures[];
  /** Direct routes to a module other than the expected one, or direct routes of fallback lines. */
  readonly wrong: number;
  readonly correct: number;
  readonly expectedDirect: number;
  readonly recall: number;
  readonly mistakes: readonly { readonly text: string; readonly expected: string; readonly routed: string }[];
}

/** Parses `text<TAB>path<TAB>module` lines (header and `#` comments skipped); throws naming the bad line. */
export const parseLabelled = (content: string): LabelledLine[] => {
  const lines: LabelledLine[] = [];
  content.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === "" || raw.startsWith("#") || (index === 0 && raw.startsWith("text\t"))) return;
    const [text, path, module, ...rest] = raw.split("\t");
    if (
      text === undefined ||
      text.trim() === "" ||
      rest.length > 0 ||
      (path !== "direct" && path !== "fallback")
    )
      throw new Error(`line ${index + 1}: expected text<TAB>direct|fallback<TAB>module`);
    if (module === undefined || module.trim() === "")
      throw new Error(`line ${index + 1}: no module (write - for none)`);
    if (path === "direct" && module === "-")
      throw new Error(`line ${index + 1}: a direct line needs a module`);
    lines.push({
      text: text.trim(),
      path,
      module: module === "-" ? undefined : module.trim(),
      line: index + 1,
    });
  });
  return lines;
};

/** Where a line goes under some thresholds: a module (direct or command) or undefined (not answered directly). */
const routedTo = (routed: RoutedLine, thresholds: Thresholds): string | undefined => {
  if (routed.command !== undefined) return routed.command ?? undefined;
  if (routed.direct === undefined) return undefined;
  return routed.similarity >= thresholds.minSimilarity &&
    routed.margin >= thresholds.minMargin &&
    routed.coverage >= thresholds.minCoverage
    ? routed.direct
    : undefined;
};

const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);

export const evaluate = (
  labelled: readonly LabelledLine[],
  routed: readonly RoutedLine[],
  thresholds: Thresholds,
): Evaluation => {
  const figures = new Map<string, { correct: number; wrong: number; expected: number; routed: number }>();
  const of = (module: string) => {
    const entry = figures.get(module) ?? { correct: 0, wrong: 0, expected: 0, routed: 0 };
    figures.set(module, entry);
    return entry;
  };
  const mistakes: { text: string; expected: string; routed: string }[] = [];
  let correct = 0;
  let wrong = 0;
  let expectedDirect = 0;
  labelled.forEach((line, index) => {
    const target = routedTo(routed[index]!, thresholds);
    if (line.path === "direct" && line.module !== undefined) {
      expectedDirect++;
      of(line.module).expected++;
    }
    if (target === undefined) return;
    of(target).routed++;
    if (line.path === "direct" && target === line.module) {
      correct++;
      of(target).correct++;
    } else {
      wrong++;
      of(target).wrong++;
      mistakes.push({ text: line.text, expected: `${line.path} ${line.module ?? "-"}`, routed: target });
    }
  });
  const modules = [...figures]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([module, entry]) => ({
      module,
      correct: entry.correct,
      wrong: entry.wrong,
      expected: entry.expected,
      precision: ratio(entry.correct, entry.routed),
      recall: ratio(entry.correct, entry.expected),
    }));
  return {
    thresholds,
    modules,
    wrong,
    correct,
    expectedDirect,
    recall: ratio(correct, expectedDirect),
    mistakes,
  };
};

const steps = (from: number, to: number, step: number): number[] => {
  const values: number[] = [];
  for (let value = from; value <= to + 1e-9; value += step) values.push(Math.round(value * 100) / 100);
  return values;
};

/** The grid `fit` searches. */
export const GRID = {
  minSimilarity: steps(0.2, 0.8, 0.05),
  minMargin: [0, 0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2],
  minCoverage: steps(0.3, 0.8, 0.1),
} as const;

/**
 * The recommended thresholds: zero wrong direct routes first, then the most right ones; among equals the safest
 * (the highest similarity, then margin, then coverage), so a threshold sits as far from the mistakes as recall
 * allows.
 */
export const recommend = (labelled: readonly LabelledLine[], routed: readonly RoutedLine[]): Evaluation => {
  let best: Evaluation | undefined;
  for (const minSimilarity of GRID.minSimilarity)
    for (const minMargin of GRID.minMargin)
      for (const minCoverage of GRID.minCoverage) {
        const candidate = evaluate(labelled, routed, { minSimilarity, minMargin, minCoverage });
        if (best === undefined || better(candidate, best)) best = candidate;
      }
  return best!;
};

const better = (left: Evaluation, right: Evaluation): boolean => {
  if (left.wrong !== right.wrong) return left.wrong < right.wrong;
  if (left.correct !== right.correct) return left.correct > right.correct;
  const a = left.thresholds;
  const b = right.thresholds;
  if (a.minSimilarity !== b.minSimilarity) return a.minSimilarity > b.minSimilarity;
  if (a.minMargin !== b.minMargin) return a.minMargin > b.minMargin;
  return a.minCoverage > b.minCoverage;
};

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

const table = (evaluation: Evaluation): string[] => [
  `  ${"module".padEnd(24)} ${"precision".padStart(9)} ${"recall".padStart(16)} ${"wrong".padStart(6)}`,
  ...evaluation.modules.map(
    (figures) =>
      `  ${figures.module.padEnd(24)} ${percent(figures.precision).padStart(9)} ${`${percent(figures.recall)} (${figures.correct}/${figures.expected})`.padStart(16)} ${String(figures.wrong).padStart(6)}`,
  ),
  `  ${"all".padEnd(24)} ${"".padStart(9)} ${`${percent(evaluation.recall)} (${evaluation.correct}/${evaluation.expectedDirect})`.padStart(16)} ${String(evaluation.wrong).padStart(6)}`,
];

const describe = (thresholds: Thresholds): string =>
  `minSimilarity ${thresholds.minSimilarity}, minMargin ${thresholds.minMargin}, minCoverage ${thresholds.minCoverage}`;

/** The report `route fit` prints: current figures, the grid by similarity, the recommendation and its JSON. */
export const fitReport = (
  labelled: readonly LabelledLine[],
  routed: readonly RoutedLine[],
  current: Thresholds,
): string => {
  const now = evaluate(labelled, routed, current);
  const lines = [`${labelled.length} labelled lines, ${now.expectedDirect} expected direct`, ""];
  lines.push(`current (${describe(current)}):`, ...table(now));
  for (const mistake of now.mistakes)
    lines.push(
      `  wrong: ${JSON.stringify(mistake.text)} expected ${mistake.expected}, routed ${mistake.routed}`,
    );
  lines.push("", "grid (best margin and coverage for each similarity):");
  lines.push(
    `  ${"minSimilarity".padEnd(14)} ${"minMargin".padEnd(10)} ${"minCoverage".padEnd(12)} recall    wrong  per module (recall/wrong)`,
  );
  for (const minSimilarity of GRID.minSimilarity) {
    let best: Evaluation | undefined;
    for (const minMargin of GRID.minMargin)
      for (const minCoverage of GRID.minCoverage) {
        const candidate = evaluate(labelled, routed, { minSimilarity, minMargin, minCoverage });
        if (best === undefined || better(candidate, best)) best = candidate;
      }
    if (best === undefined) continue;
    const perModule = best.modules.map(
      (figures) => `${figures.module.replace(/^system:/, "")} ${percent(figures.recall)}/${figures.wrong}`,
    );
    lines.push(
      `  ${String(minSimilarity).padEnd(14)} ${String(best.thresholds.minMargin).padEnd(10)} ${String(best.thresholds.minCoverage).padEnd(12)} ${percent(best.recall).padEnd(9)} ${String(best.wrong).padEnd(6)} ${perModule.join(", ")}`,
    );
  }
  const recommended = recommend(labelled, routed);
  lines.push("", `recommended (${describe(recommended.thresholds)}):`, ...table(recommended));
  labelled.forEach((line, index) => {
    const figures = routed[index]!;
    if (line.path !== "direct" || routedTo(figures, recommended.thresholds) === line.module) return;
    lines.push(
      `  missed: ${JSON.stringify(line.text)} (${line.module}) top ${figures.top ?? "-"} similarity ${figures.similarity} margin ${figures.margin} coverage ${figures.coverage}${figures.direct === undefined ? " (no direct candidate)" : ""}`,
    );
  });
  lines.push("", "semantic.json:", JSON.stringify(recommended.thresholds));
  return `${lines.join("\n")}\n`;
};
