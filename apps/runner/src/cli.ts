/**
 * The bench's command line.
 *
 *   pnpm --filter runner bench [--products a,b]      (each product's knee: a drain, then paced runs under its ceiling)
 *   pnpm --filter runner bench [--products a,b] --rate 20000 | --rate a=80000,default=20000   (fixed-rate runs)
 *   pnpm --filter runner bench [--products a,b] --sweep   (the long knee search the fast one is checked against)
 *   pnpm --filter runner bench [--products a,b] --agreement   (per row, the fast search and then the sweep; the page shows how they agree)
 *   pnpm --filter runner bench --list [--json]   (the products; --json: [{id, package, ciRate}], CI's matrix)
 *   pnpm --filter runner bench render results/<stamp>/results.json [--out page.md] [--html page.html] [--agree-with sweep/results.json]
 *   pnpm --filter runner bench arrow results/<stamp>/results.json   (ticks, runs, sweep steps as Arrow IPC files)
 *   pnpm --filter runner bench repeats a/results.json [b/results.json ...]   (how far each search repeated itself)
 *   pnpm --filter runner bench doctor        (what this machine lacks for each product)
 *   pnpm --filter runner bench broker        (a broker for tests; prints BOOTSTRAP=host:port)
 *
 * Exit codes (src/exit-code.ts): 0 every run valid on a quiet machine, 1 the bench could not
 * run (e.g. the broker would not start), 2 bad input, 3 a run failed or was invalid, 4 a run
 * was measured on a noisy machine, 130 interrupted (results so far are kept).
 */
import { userPath } from "./user-path.ts";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { DEFAULT_GUARANTEE, DEFAULT_MODEL, GUARANTEES, modelsDir, parseModelServerUrl, repoRoot, SERVINGS } from "@bench/core";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { ratesGiven, runBench, type BenchOptions } from "./bench.ts";
import { serveBroker } from "./broker/serve.ts";
import { doctorCommand, preflight } from "./doctor/command.ts";
import { EXIT } from "./exit-code.ts";
import { listCommand } from "./list.ts";
import { COST_AGREEMENT } from "./page/agreement.ts";
import { pageSets, parseOtherMachine, parseSuppliedSpecs, renderCommand, withSuppliedSides } from "./page/command.ts";
import { repeatReport } from "./page/repeats.ts";
import { htmlPathFor, writeHtmlPage } from "./page/html/command.ts";
import { writeArrowFiles } from "./results/arrow.ts";
import { kneesFrom, type OverloadBase } from "./faults/knees.ts";
import { readResults, readResultsFile } from "./results/files.ts";
import type { BenchResults } from "./results/types.ts";
import { setProgressPlan } from "./progress.ts";
import { DEFAULT_RATE, parseRates } from "./rates.ts";
import { discoverProducts } from "./run/discover.ts";
import { MAX_SEARCH_STEPS, MAX_SWEEP_STEPS, SWEEP_RESOLUTION } from "./sweep/constants.ts";
import { MAX_ROUNDS } from "./rounds/run-rounds.ts";

const wholeNumber = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return n;
};

const modelServerOption = (value: string): string => {
  try {
    return parseModelServerUrl(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

/** `--serving`, with `--model-server` implying served; embedded beside a server is bad input. */
function servingOf(opts: { serving?: BenchOptions["serving"]; modelServer?: string }): { serving: BenchOptions["serving"] } | { bad: string } {
  if (opts.modelServer !== undefined && opts.serving === "embedded") {
    return { bad: "--model-server goes with --serving served (the rows call it), not embedded" };
  }
  return { serving: opts.serving ?? (opts.modelServer !== undefined ? "served" : "embedded") };
}

const share = (value: string): number => {
  const n = Number(value);
  if (!(n > 0 && n < 1)) throw new InvalidArgumentError("expected a share between 0 and 1, such as 0.1");
  return n;
};

/** A model's card must be in models/: a name that has none is refused before anything starts. */
const modelName = (value: string): string => {
  const known = readdirSync(modelsDir()).filter((f) => f.endsWith(".card.json")).map((f) => f.slice(0, -".card.json".length));
  if (!known.includes(value)) throw new InvalidArgumentError(`no model card models/${value}.card.json; known models: ${known.sort().join(", ")}`);
  return value;
};

/** Results files given as one comma-separated option value (`a.json,b.json`), merged. */
const resultsList = (value: string) => readResults(value.split(",").map((p) => userPath(p.trim())));

const kneesOption = (value: string): Map<string, OverloadBase> => {
  try {
    return kneesFrom(resultsList(value));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read knees from ${value}: ${(error as Error).message}`);
  }
};

const program = new Command("bench")
  .description("Streaming-ML bench: each product scores every record of one Kafka partition with the same frozen model")
  .exitOverride()
  .showHelpAfterError("(run with --help for usage)");

program
  .option("-p, --products <ids>", "comma-separated product ids (default: every product)")
  .option(
    "-r, --rate <spec>",
    `fixed-rate runs at this offered records/s: N, or id=N,...,default=N (others ${DEFAULT_RATE}); without it (and --sweep), each product's knee is found ` +
      `from a drain run`,
    parseRates,
    parseRates(""),
  )
  .option("--warmup <s>", "the window never starts sooner than this many seconds after gendata (the main command's rounds: 5)", wholeNumber, 10)
  .option("--settle-timeout <s>", "the window starts by then even if the backlog has not settled (the run is then unsettled)", wholeNumber, 60)
  .option("--window <s>", "seconds measured (the main command's paced and drain windows end when their figure is known, 10–15 s; " +
      "its rounds' last 10 s)", wholeNumber, 30)
  .option("--repeat <n>", "runs per product at its --rate; the page shows their spread", wholeNumber, 1)
  .option("--parallelism <n>", "cores a product may use through its own mechanism", wholeNumber, availableParallelism())
  .option("--bootstrap <host:port>", "use this Kafka instead of starting one")
  .option("--results <dir>", "where results and the page go (default results/<timestamp>)")
  .option("--drain-timeout <s>", "longest wait for a backlog to drain after the window", wholeNumber, 60)
  .addOption(new Option("--hang <s>", "consumed standing still this long with a backlog = hung").argParser(wholeNumber).default(30))
  .option("--list", "list the products and exit")
  .option("--json", "with --list: one line of JSON, [{id, package, ciRate}] (the CI workflow's matrix)")
  .option(
    "--sweep",
    "find each product's knee as the main command does (a drain, then paced steps), bracketed to --sweep-resolution and confirmed, every paced step a " +
      "fixed window (--window) in one product session; the reference the main command is checked against",
  )
  .option(
    "--agreement",
    "per product, the main command's knee search and then a --sweep (its options apply), minutes apart; the sweep's results go to sweep/ and the page shows " +
      "how each row's knees and costs agree",
  )
  .addOption(
    new Option(
      "--sweep-resolution <x>",
      "a sweep bisects until the knee's bracket is within this share (0.1: the lowest saturated rate at most 10% above the knee)",
    ).argParser(share).default(SWEEP_RESOLUTION),
  )
  .option("--profile", "after each window, profile the product for 10 s (gendata still feeding) into a CPU breakdown; a sweep's confirm runs do by default")
  .option("--no-profile", "no profiling, not even in a sweep")
  .option(
    "--faults",
    "per product: poison pills among the records and a kill -9 + restart mid-window, then a broker restart mid-window (SIGKILL, then clean), then an " +
      "overload (twice the base rate for 60 s, then back; not under --guarantee exactly-once); exit 5 if records were lost (under exactly-once, or " +
      "duplicated read-committed)",
  )
  .option(
    "--budget <min>",
    "the main command's minutes for its knee searches and rounds (products' first-time preparation not counted): three rounds always, however " +
      "long they take, and a fourth (a make-up round) for every row when their median interval is wider than ±5 %, else for a row that lost " +
      "one of them or whose interval is wider than ±10 %; then rounds for rows whose order is still unknown while the budget holds",
    wholeNumber,
    30,
  )
  .option(
    "--also-at-knee",
    "the main command's rounds also measure each row at its knee, after its window at the load share, so the page shows what the load share changes",
  )
  .option(
    "--model <name>",
    "the frozen model every row loads, by its card in models/ (risk_mlp: the seed's 4-16-1 network; " +
      "risk_mlp_wide: one whose forward weighs about as much as a framework)",
    modelName,
    DEFAULT_MODEL,
  )
  .addOption(
    new Option(
      "--guarantee <guarantee>",
      "every row runs at-least-once (a crash replays what was not committed) or exactly-once into Kafka (each row's own transactional mechanism; rows " +
        "whose framework offers none are listed with the reason); the audit reads committed outputs and, under exactly-once, a duplicate makes the run invalid",
    ).choices(GUARANTEES).default(DEFAULT_GUARANTEE),
  )
  .addOption(
    new Option(
      "--serving <serving>",
      "where each row's model runs: embedded (in the row's own process) or served (the rows that can call a model server send it each batch over the " +
        "Open Inference Protocol's gRPC; the bench starts its own, KServe's Python model server on ONNX Runtime, and counts its CPU and memory as the " +
        "row's; the others are listed with their reason)",
    ).choices(SERVINGS),
  )
  .option(
    "--model-server <host:port>",
    "with --serving served (which it implies): a running model server's gRPC address (host:port or grpc://host:port) the rows call instead of the " +
      "bench's own; its CPU is then not seen, and the figures hold the rows' side only",
    modelServerOption,
  )
  .option(
    "--knees <results.json[,more.json]>",
    "with --faults: the overload's base rate is each product's rounds' rate from a main command's results, or a sweep's confirmed knee (others: their --rate)",
    (value: string) => kneesOption(value),
  )
  .action(async (opts: BenchOptions & { json?: boolean }) => {
    if (opts.list) {
      process.exitCode = await listCommand(opts.json === true);
      return;
    }
    // Without --list it would start a whole bench: a script that meant to list must not.
    if (opts.json) {
      console.error("bench: --json goes with --list");
      process.exitCode = EXIT.badInput;
      return;
    }
    const serving = servingOf(opts);
    if ("bad" in serving) {
      console.error(`bench: ${serving.bad}`);
      process.exitCode = EXIT.badInput;
      return;
    }
    opts.serving = serving.serving;
    if (opts.knees && !opts.faults) {
      console.error("bench: --knees goes with --faults (it sets the overload's base rate)");
      process.exitCode = EXIT.badInput;
      return;
    }
    await preflight(opts.products, (line) => console.error(line));
    const ids = opts.products
      ? opts.products.split(",").map((p) => p.trim()).filter(Boolean)
      : (await discoverProducts(repoRoot(), () => undefined)).map((p) => p.id);
    const fast = !opts.sweep && !opts.faults && !ratesGiven(opts.rate);
    const fastRuns = fast ? 1 + MAX_SEARCH_STEPS : 0;
    const mainRuns = fastRuns + MAX_ROUNDS - 1;
    const sweepRuns = 1 + MAX_SWEEP_STEPS;
    setProgressPlan({ products: ids, maxRunsPerProduct: opts.sweep ? sweepRuns : opts.agreement ? fastRuns + sweepRuns : fast ? mainRuns : opts.repeat });
    process.exitCode = await runBench(opts);
  });

program
  .command("render")
  .description("render the page from results files")
  .argument(
    "<results...>",
    "results.json files (several merge into one page; files of a second model, e.g. a --model risk_mlp_wide sitting, are shown beside the first " +
      "model's under 'Two models', and files of the other guarantee, e.g. a --guarantee exactly-once sitting and its --faults, under 'Exactly-once')",
  )
  .option("-o, --out <file>", "write the page here (default: stdout); page.html goes beside it")
  .option("--html <file>", "write the HTML page here (default: beside --out)")
  .option(
    "--compare <label=a.json[,b.json]>",
    "another machine's results: the page says how each row carries to it (repeatable)",
    (spec: string, all: string[]) => [...all, spec],
    [] as string[],
  )
  .option(
    "--supplied <side:cpython=NNNNns>",
    "runtime readings taken by hand with one probe on both machines, in place of a side's own: side is here or a --compare label (repeatable)",
    (spec: string, all: string[]) => [...all, spec],
    [] as string[],
  )
  .option(
    "--agree-with <results.json[,more.json]>",
    "a --sweep of the same rows (or another knee search of them, a control; several merge as the rendered ones do): the page shows how each row's knee " +
      "agrees with it",
  )
  .action((files: string[], opts: { out?: string; html?: string; compare: string[]; supplied: string[]; agreeWith?: string }) => {
    try {
      const out = opts.out !== undefined ? userPath(opts.out) : undefined;
      const compared = opts.compare.map((spec) => parseOtherMachine(spec, userPath));
      const supplied = parseSuppliedSpecs(opts.supplied, compared.map((o) => o.label));
      const { page, beside } = pageSets(files.map((f) => userPath(f)));
      const { here, others } = withSuppliedSides(page, compared, supplied);
      const agreeWith = opts.agreeWith !== undefined ? resultsList(opts.agreeWith) : undefined;
      const extras = { otherMachines: others, agreeWith, ...beside };
      renderCommand(here, out, extras);
      const html = opts.html !== undefined ? userPath(opts.html) : out ? htmlPathFor(out) : undefined;
      if (html) writeHtmlPage(html, here, extras);
    } catch (error) {
      process.stderr.write(`render: ${(error as Error).message}\n`);
      process.exitCode = 2;
    }
  });

program
  .command("arrow")
  .description("write a results file's ticks, runs and sweep steps as Arrow IPC files")
  .argument("<results>", "a results.json (or .json.gz) file")
  .option("-o, --out <dir>", "where the .arrow files go (default: beside the results file)")
  .action((given: string, opts: { out?: string }) => {
    const file = userPath(given);
    const results = readResultsFile(file);
    for (const path of writeArrowFiles(opts.out !== undefined ? userPath(opts.out) : dirname(file), results)) console.log(path);
  });

program
  .command("repeats")
  .description("how far each search repeated itself: its steps run again at one rate, their verdicts and µs per inference")
  .argument("<results...>", "results.json files of knee searches (the main command, --sweep, --agreement's sweep/)")
  .action((files: string[]) => {
    try {
      const read = files.map((f) => ({ label: f, sweeps: readResults([userPath(f)]).sweeps ?? [] }));
      for (const line of repeatReport(read, COST_AGREEMENT)) console.log(line);
    } catch (error) {
      process.stderr.write(`repeats: ${(error as Error).message}\n`);
      process.exitCode = EXIT.badInput;
    }
  });

program
  .command("doctor")
  .description("what this machine has and lacks for each product, and per product \"runs here\" or why not and the fix")
  .action(async () => {
    process.exitCode = await doctorCommand();
  });

program
  .command("broker")
  .description("start a Kafka broker, print BOOTSTRAP=host:port, and run until SIGTERM")
  .action(async () => {
    process.exitCode = await serveBroker();
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exit(error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : 2);
  }
  throw error;
}
