import type { Json } from "../../util/codec.js";
import type { RouteDecision, RouteSource } from "./route-decision.js";

/** The path names admins see (`npx system route`), one per decision source. */
const PATHS: Readonly<Record<RouteSource, string>> = {
  COMMAND: "command",
  SEMANTIC: "semantic",
  CACHE: "cache",
  MODEL: "model",
  LOCAL_FALLBACK: "local_fallback",
  CLARIFY: "model",
  STRUCTURED: "structured",
};

/**
 * A decision as one JSON object, so admins can tune samples: path, module, input, candidates with similarity,
 * coverage, their closest sample and the words their samples lack, margin, coverage, guard hits and every step
 * tried. A command error has path `none` (nothing was selected).
 */
export const explainDecision = (decision: RouteDecision): { [key: string]: Json } => ({
  path: decision.failure !== undefined ? "none" : PATHS[decision.source],
  source: decision.source,
  moduleId: decision.module?.id.toString() ?? null,
  input:
    decision.action === undefined || decision.module === undefined
      ? null
      : decision.module.action.codec.encode(decision.action.input),
  failure:
    decision.failure === undefined ? null : { code: decision.failure.code, args: [...decision.failure.args] },
  candidates: decision.evidence.candidates.map((candidate) => ({
    moduleId: candidate.moduleId,
    similarity: candidate.similarity,
    coverage: candidate.coverage,
    reject: candidate.reject,
    ...(candidate.sample === undefined ? {} : { sample: candidate.sample }),
    ...(candidate.uncovered === undefined ? {} : { uncovered: [...candidate.uncovered] }),
  })),
  margin: decision.evidence.margin,
  coverage: decision.evidence.coverage,
  guards: [...decision.evidence.guards],
  steps: [...decision.evidence.path],
  selection:
    decision.selection === undefined
      ? null
      : decision.selection.candidates.map((candidate) => ({
          action: candidate.action,
          input: candidate.input,
        })),
});
