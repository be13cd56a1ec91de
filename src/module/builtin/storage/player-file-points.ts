import type { AgentStore } from "../../../agent/storage/agent-store.js";
import { ModuleData } from "../../../agent/storage/player-data.js";
import type {
  DebitOutcome,
  PointsAccounts,
  PointsChange,
  PointsEntry,
} from "../../../data/player-state/points-accounts.js";
import { pointsLedgerStorage } from "./points-ledger.js";

/**
 * Points in the player files of one server (the default): each change is one player-file transaction on the
 * `system:points/points_ledger` storage, as check-in and the shop change it inside their own transactions.
 */
export class PlayerFilePoints implements PointsAccounts {
  readonly scope = "player-file";

  constructor(private readonly store: AgentStore) {}

  balance(playerId: string): Promise<number> {
    return this.store.read(playerId, (data) => ModuleData.get(data, pointsLedgerStorage).balance());
  }

  statement(
    playerId: string,
    limit: number,
  ): Promise<{ readonly balance: number; readonly entries: readonly PointsEntry[] }> {
    return this.store.read(playerId, (data) => {
      const ledger = ModuleData.get(data, pointsLedgerStorage);
      return { balance: ledger.balance(), entries: limit <= 0 ? [] : ledger.entries().slice(-limit) };
    });
  }

  credit(playerId: string, change: PointsChange): Promise<{ recorded: boolean; balance: number }> {
    return this.store.transaction(playerId, (data) => {
      const ledger = ModuleData.get(data, pointsLedgerStorage);
      const recorded = ledger.credit(change.id, change.amount, change.reason, change.at);
      return { recorded, balance: ledger.balance() };
    });
  }

  debit(playerId: string, change: PointsChange): Promise<{ outcome: DebitOutcome; balance: number }> {
    return this.store.transaction(playerId, (data) => {
      const ledger = ModuleData.get(data, pointsLedgerStorage);
      const outcome = ledger.debit(change.id, change.amount, change.reason, change.at);
      return { outcome, balance: ledger.balance() };
    });
  }
}
