import type { AgentJournal } from "./agent-journal.js";

/** This server's exclusive right to run one run (an event task, a long workflow) while servers share work. */
export interface RunClaim {
  /** The journal to run with: its step writes and task changes apply only while the claim holds. */
  readonly journal: AgentJournal;
  /** Aborted when the claim was lost (another server took the run over after this one stalled): stop. */
  readonly signal: AbortSignal;
  /** Ends the claim; the run can be claimed again at once. */
  release(): Promise<void>;
}

/**
 * Claims of runs among the servers of a network: at most one server runs a run at a time, and a server that
 * died or stalled loses its claim after a while, so another one resumes the run from its receipts.
 */
export interface RunClaims {
  /**
   * Claims `runId` (its write steps are `<runId>/<step>`), or undefined while another server holds it. The
   * run's steps, and the event tasks named in `events`, are read again once claimed (another server may have
   * moved them on).
   */
  claim(runId: string, events?: readonly string[]): Promise<RunClaim | undefined>;
  /** How soon a run that could not be claimed is worth trying again (a held claim may expire by then). */
  readonly retryMillis?: number;
}
