// Imported first by panel-app.ts: zod decides whether it may compile parsers with `new Function` when a schema is
// created (at module load), which a strict Content-Security-Policy reports as an error. The panel never needs it.
import { z } from "zod";

z.config({ jitless: true });
