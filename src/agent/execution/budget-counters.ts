/** What one player request has used so far; shared by every nested loop and child context of it. */
export class BudgetCounters {
  modelCalls = 0;
  toolCalls = 0;
  steps = 0;
  writeSteps = 0;
  inputTokens = 0;
  outputTokens = 0;
  /** Model calls made by routing (they count against modelCalls but not against rounds). */
  routingCalls = 0;

  get totalTokens(): number {
    return this.inputTokens + this.outputTokens;
  }

  snapshot(): Readonly<Record<string, number>> {
    return {
      modelCalls: this.modelCalls,
      toolCalls: this.toolCalls,
      steps: this.steps,
      writeSteps: this.writeSteps,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      totalTokens: this.totalTokens,
    };
  }
}
