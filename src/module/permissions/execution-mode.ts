/**
 * The four execution strategies an admin can choose (docs/execution-modes.md):
 * - `simple`: no model at all — exact commands, local semantic routes and local fallback cards only.
 * - `routing`: the default — hybrid routing (command → semantic → cache → model router → fallback), then the
 *   chosen workflow under its own policy.
 * - `ask`: plain text is a question: it goes straight to `system:question` (database first); commands still work.
 * - `full`: free mode — plain text goes to `system:free_chat` when installed (a model loop over the enabled tools),
 *   otherwise behaves as `routing`.
 */
export const EXECUTION_MODES = ["simple", "routing", "ask", "full"] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export const isExecutionMode = (value: string): value is ExecutionMode =>
  (EXECUTION_MODES as readonly string[]).includes(value);

/** Whether a mode may call a model for routing or answers. */
export const modeUsesModel = (mode: ExecutionMode): boolean => mode !== "simple";
