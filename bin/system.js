#!/usr/bin/env node
// `npx system <command>`: runs the TypeScript entry point through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
