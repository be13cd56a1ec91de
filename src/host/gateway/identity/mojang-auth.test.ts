import { constants, createHash, createPublicKey, publicEncrypt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MojangAuthenticator, minecraftHexDigest } from "./mojang-auth.js";

const sha1 = (text: string): Buffer => createHash("sha1").update(text).digest();

describe("MojangAuthenticator", () => {
  it("writes server hashes as Java's signed hex (the protocol's published examples)", () => {
    expect(minecraftHexDigest(sha1("Notch"))).toBe("4ed1f46bbe04bc756bcb17c0c7ce3e4632f06a48");
    expect(minecraftHexDigest(sha1("jeb_"))).toBe("-7c9d5b0044c130109a5d7b5fb5c317c02b4e28c1");
    expect(minecraftHexDigest(sha1("simon"))).toBe("88e16a1019277b15d58faf0541e11910eb756f6");
  });

  it("decrypts what a client encrypted with its public key (PKCS#1 v1.5), and nothing else", () => {
    const authenticator = new MojangAuthenticator();
    const key = createPublicKey({ key: authenticator.publicKey, format: "der", type: "spki" });
    const secret = Buffer.from("0123456789abcdef");
    const encrypted = publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, secret);
    expect(authenticator.decrypt(encrypted)).toEqual(secret);
    expect(authenticator.decrypt(Buffer.alloc(128, 7))).toBeUndefined();
    expect(authenticator.decrypt(Buffer.from([1, 2, 3]))).toBeUndefined();
  });
});
