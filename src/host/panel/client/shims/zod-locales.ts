// Replaces zod's index of ~60 error-message locales in the web panel's browser bundle (most of zod's size); the
// panel only needs zod to validate results, and zod configures English itself.
export { default as en } from "zod/v4/locales/en.js";
