// `node:path` in the web panel's browser bundle: only `join` is imported (by `Languages.load`, unused there).
export const join = (...parts: readonly string[]): string => parts.filter((part) => part !== "").join("/");
