import { describe, expect, it } from "vitest";
import { parseGatewayCliOptions } from "./gateway-cli-options.js";

describe("system gateway flags", () => {
  it("takes --server-dir over serverDir of gateway.json", () => {
    expect(parseGatewayCliOptions(["--server-dir=/srv/pack"])).toEqual({
      success: true,
      value: { dataDir: "run", serverDir: "/srv/pack" },
    });
  });

  it("takes --rcon and --rcon-password-file beside the others, as --flag value or --flag=value", () => {
    expect(
      parseGatewayCliOptions([
        "--backend",
        "127.0.0.1:25566",
        "--rcon",
        "127.0.0.1:25575",
        "--rcon-password-file=rcon.secret",
      ]),
    ).toEqual({
      success: true,
      value: {
        dataDir: "run",
        backend: { host: "127.0.0.1", port: 25566 },
        rcon: "127.0.0.1:25575",
        rconPasswordFile: "rcon.secret",
      },
    });
    expect(parseGatewayCliOptions(["--rcon"]).success).toBe(false);
    expect(parseGatewayCliOptions(["--rcon-password"]).success).toBe(false);
  });
});
