// Test helper: a small LLM grid for deno task grid's launcher
// (permissions_test.ts, permissions_signal_long_test.ts).

/** A one-episode Stag Hunt spec and a models file for `server`, in a fresh folder outside runs/. */
export async function llmGrid(baseURL: string, keyVariable: string, turns = 1) {
  const dir = await Deno.makeTempDir({ prefix: "coordlab-launch-" });
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({
      models: [{
        id: "local",
        baseURL,
        model: "coordlab-defensive",
        testDouble: true,
        apiKeyEnv: keyVariable,
      }],
    }),
  );
  await Deno.writeTextFile(
    `${dir}/spec.json`,
    JSON.stringify({
      name: "launch",
      episodes: turns === 1 ? 1 : 4,
      blocks: [{
        game: "staghunt",
        N: [3],
        M: [2],
        T: [turns],
        F: [1],
        agents: [{ model: "local" }],
      }],
    }),
  );
  const args = [
    "--spec",
    `${dir}/spec.json`,
    "--models",
    `${dir}/models.json`,
    "--out",
    `${dir}/run`,
    "--cache",
    `${dir}/cache`,
    "--no-progress",
  ];
  return { dir, args };
}
