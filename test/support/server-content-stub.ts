import type { ServerContent } from "../../src/game/data/server-content.js";

/**
 * A server's content for tests: nothing (no items, recipes, mods, drops or tags) except what `given` answers. Each
 * test names only the parts it is about; a part the interface gains later answers nothing here.
 */
export const contentStub = (given: Partial<ServerContent> = {}): ServerContent => ({
  items: () => [],
  item: () => undefined,
  name: () => undefined,
  recipesFor: () => [],
  mods: () => [],
  uses: () => 0,
  usedIn: () => [],
  hasGameRecipes: () => false,
  dropsOf: () => [],
  tagItems: () => [],
  typeName: () => undefined,
  ...given,
});
