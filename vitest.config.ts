import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests that start game servers, processes or browsers: they wait on sockets and timers more than on the CPU, so
 * they run after the unit tests, on half the cores (at least two files at a time). A new file in these folders,
 * or anywhere under src/ and test/, belongs to its project without a change here.
 */
const SYSTEM = ["test/system/**/*.test.ts", "test/e2e/**/*.test.ts", "test/crash/**/*.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SYSTEM],
          // every core; files share a worker's loaded modules (no test mocks modules or globals)
          maxWorkers: availableParallelism(),
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: SYSTEM,
          maxWorkers: Math.max(2, Math.ceil(availableParallelism() / 2)),
          // each file starts its own servers in temp folders; the worker's loaded modules are shared
          isolate: false,
          // a page or a server polled for its state: as long as the other waits on servers, never a fixed time
          expect: { poll: { timeout: 20_000 } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
