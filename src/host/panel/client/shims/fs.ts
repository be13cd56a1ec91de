// `node:fs` in the web panel's browser bundle: `Languages.load` is never called there (tables are fetched).
const unavailable = (): never => {
  throw new Error("the file system is not available in the browser");
};

export const readdirSync = unavailable;
export const readFileSync = unavailable;
