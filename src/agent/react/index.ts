/**
 * The generic bounded ReAct loop. A workflow (or a custom loop) does:
 * `const tools = context.tools(TYPE_A, TYPE_B)`; `const react = ReActContext.create(context, { question, prompt,
 * tools, catalog: [ReActTool.of(TYPE_A, "…"), …], answer: ANSWER_CODEC })`; `const outcome = await
 * ReActLoop.run(context, react, { recoverable, degrade, guard })`; then maps the outcome to its AgentResult.
 */
export { ReActContext, type ReActContextOptions, type ReActUserJson } from "./react-context.js";
export { ANSWER_TYPE, parseReply, type ReActDecision, ReActDecisionCodec } from "./react-decision.js";
export { ReActLoop, type ReActOptions } from "./react-loop.js";
export { isTerminal, type Observations, type ReActOutcome, TERMINAL_FAILURES } from "./react-outcome.js";
export { type AnyReActTool, canonicalJson, type ReActHandler, ReActTool } from "./react-tool.js";
