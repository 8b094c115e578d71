/**
 * Renders the page (the seed's shape, the answer first: the host in one line, the ranking, then the machine) from results. Pure: the same results
 * give the same bytes, so a committed results file and its page can be checked against each
 * other. The sections are in tables.ts and answer.ts, their prose in prose.ts.
 */
import { kneeAndShareSection } from "./knee-and-share.ts";
import type { BenchResults, RunResult, ScenarioRow } from "../results/types.ts";
import { acrossMachinesSection, type OtherMachine } from "./across-machines.ts";
import { agreementSection } from "./agreement.ts";
import { answerSection, rankedFigures } from "./answer.ts";
import { breakdownSection } from "./breakdown.ts";
import { roundsSection } from "./rounds.ts";
import { renderFaults } from "./faults.ts";
import { renderBrokerRestarts } from "./broker-restarts.ts";
import { renderServerKills } from "./server-kills.ts";
import { renderOverloads } from "./overloads.ts";
import { modelAloneSection } from "./model-alone.ts";
import { frameworkAddsSection } from "./framework-adds.ts";
import { twoModelsSection } from "./two-models.ts";
import { exactlyOnceSection } from "./exactly-once.ts";
import { servedAloneLines, servedSection } from "./served.ts";
import { table } from "./format.ts";
import { hostLine, machineSection } from "./machine.ts";
import { characteristics, INPUT_AND_GATE, intro } from "./prose.ts";
import { productLabel, rowsOf } from "./rows.ts";
import {
  conditionsSection, consumerSettingsLine, footerSection, notesSection, notRunSection, resourcesSection, sanitySection,
  spreadSection, sweepSections, throughputSection,
} from "./tables.ts";

export { productLabel, rowsOf } from "./rows.ts";

/** What a page shows beside its own results. */
export interface PageExtras {
  /** Other machines' results: how each row carries to them (across-machines.ts). */
  otherMachines?: readonly OtherMachine[];
  /** A `--sweep` (or another knee search) of the same rows, which a fast result's knees are checked against (agreement.ts). */
  agreeWith?: BenchResults;
  /** The same rows of the same sitting under another model (two-models.ts). */
  otherModel?: BenchResults;
  /** The same rows of the same sitting under the other guarantee, with its faults runs (exactly-once.ts). */
  otherGuarantee?: BenchResults;
  /** The same rows of the same sitting the other way served, embedded or calling a model server (served.ts). */
  otherServing?: BenchResults;
}

/** Every fault scenario's row record: what a file of scenarios alone says of the settings its products were handed. */
function scenarioRows(results: BenchResults): ScenarioRow[] {
  return [...(results.faults ?? []), ...(results.brokerRestarts ?? []), ...(results.serverKills ?? []), ...(results.overloads ?? [])];
}

/** Each row's delivery, processing, engine, scaling and decode; a file of fault scenarios alone has no row to describe. */
function characteristicsTable(rows: readonly RunResult[]): string[] {
  if (rows.length === 0) return [];
  return [
    table(
      ["product", "delivery", "processing", "engine", "scaling on one partition", "decode"],
      rows.map((r) => [productLabel(r), r.row.delivery, r.row.processing, r.row.engine, r.row.scaling, r.row.decode]),
    ),
    "",
  ];
}

export function renderPage(results: BenchResults, extras: PageExtras = {}): string {
  const { otherMachines = [], agreeWith, otherModel, otherGuarantee, otherServing } = extras;
  const { measured, notRun } = rowsOf(results);
  const all = [...measured, ...notRun];
  const ranked = rankedFigures(results, measured);
  return [
    "# Model Inference",
    "",
    intro(results.model),
    "",
    `Last updated: ${results.generatedAt.slice(0, 10)} · same-machine, relative comparison.`,
    "",
    hostLine(results),
    "",
    ...answerSection(results, measured, notRun),
    ...kneeAndShareSection(results),
    ...(otherModel ? twoModelsSection(results, otherModel) : []),
    ...(otherGuarantee ? exactlyOnceSection(results, otherGuarantee) : []),
    ...(otherServing ? servedSection(results, otherServing) : servedAloneLines(results)),
    ...machineSection(results),
    "## Bench characteristics",
    "",
    characteristics(results.model),
    "",
    ...characteristicsTable(all),
    INPUT_AND_GATE,
    "",
    consumerSettingsLine(all, scenarioRows(results)),
    "",
    ...throughputSection(measured),
    ...spreadSection(results, measured),
    ...resourcesSection(measured),
    ...breakdownSection(results, measured),
    ...frameworkAddsSection(results, ranked),
    ...modelAloneSection(results, ranked),
    ...conditionsSection(measured),
    ...notesSection(results, all),
    ...roundsSection(results),
    ...sweepSections(results.sweeps ?? []),
    ...(agreeWith ? agreementSection(results, agreeWith) : []),
    ...sanitySection(measured, results.modelTolerance ?? 1e-5),
    ...acrossMachinesSection(results, otherMachines),
    ...renderFaults(results.faults),
    ...renderBrokerRestarts(results.brokerRestarts),
    ...renderServerKills(results.serverKills),
    ...renderOverloads(results.overloads),
    ...notRunSection(notRun),
    ...footerSection(results, measured),
  ].join("\n");
}
