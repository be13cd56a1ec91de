import { describe, expect, it } from "vitest";
import { ContextType, ServiceContext } from "./context-type.js";

interface Catalog {
  price(id: string): number;
}
const CATALOG = ContextType.of<Catalog>("system:catalog");
const SEARCH = ContextType.of<string>("system:search");

describe("ServiceContext", () => {
  it("offers engine(), modules() and typed injection by ContextType", () => {
    const context = new ServiceContext("engine", "modules").provide(CATALOG, { price: () => 5 });
    expect(context.engine()).toBe("engine");
    expect(context.modules()).toBe("modules");
    expect(context.get(CATALOG).price("x")).toBe(5);
    expect(context.find(SEARCH)).toBeUndefined();
    expect(() => context.get(SEARCH)).toThrow(/system:search is not provided/);
  });

  it("keys services by the ContextType instance, not its name, and refuses a second provider", () => {
    const context = new ServiceContext(null, null).provide(SEARCH, "a");
    expect(context.find(ContextType.of<string>("system:search"))).toBeUndefined();
    expect(() => context.provide(SEARCH, "b")).toThrow(/already provided/);
  });
});
