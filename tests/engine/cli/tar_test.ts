import { assertEquals, assertThrows } from "../../_assert.ts";
import { readTar, writeTar } from "../../../engine/cli/_tar.ts";
import { makeTempDir } from "../../_temp.ts";

const enc = new TextEncoder();

Deno.test("writeTar() round-trips files, long names split at a folder, byte for byte", async () => {
  const long = `run/${"a".repeat(120)}/${"b".repeat(90)}.ndjson`;
  const entries = [
    { name: "pack.json", data: enc.encode('{"format":"x"}\n') },
    { name: long, data: new Uint8Array(1000).map((_, i) => i % 251) },
    { name: "empty", data: new Uint8Array(0) },
  ];
  const tar = writeTar(entries);
  assertEquals(tar.length, 512 * (1 + 1 + 1 + 2 + 1) + 1024);
  assertEquals(readTar(tar, "t.tar"), entries);
  assertEquals(writeTar(entries), tar);
  // The system's tar reads it too.
  const dir = await makeTempDir();
  try {
    await Deno.writeFile(`${dir}/t.tar`, tar);
    const out = await new Deno.Command("tar", { args: ["-tf", `${dir}/t.tar`], stdout: "piped" })
      .output();
    assertEquals(new TextDecoder().decode(out.stdout).trim().split("\n"), [
      "pack.json",
      long,
      "empty",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTar() refuses a damaged header and a name leaving its folder", () => {
  const tar = writeTar([{ name: "a.txt", data: enc.encode("hi") }]);
  const damaged = tar.slice();
  damaged[0] = 0x62; // "b.txt": the checksum no longer holds
  assertThrows(
    () => readTar(damaged, "p.tar"),
    SyntaxError,
    'Pack "p.tar" is not a tar archive, or is damaged: the header at byte 0 fails its checksum',
  );
  assertThrows(
    () => writeTar([{ name: "../x", data: new Uint8Array(0) }]),
    RangeError,
    'Archive entry name "../x" must be relative, without ".."',
  );
  assertThrows(
    () => writeTar([{ name: "x".repeat(101), data: new Uint8Array(0) }]),
    RangeError,
    `Archive entry name "${"x".repeat(101)}" is too long for a tar header`,
  );
});
