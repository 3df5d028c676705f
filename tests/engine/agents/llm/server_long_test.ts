// The local test double's oracle in full (the long group): every scene of
// every registered game under every served preset, about 4,900 calls through
// the openai SDK. The default task's server_test.ts plays each scene under one
// preset in turn: every game, scene, preset and contract in about 1,800 calls.
import { assertServedAsMocks } from "./_served_as_mocks.ts";

Deno.test("serveLocalModel() answers every call of every scene of every registered game under every preset as the game's mock agents", async () => {
  await assertServedAsMocks((_scene, _scenes, presets) => presets);
});
