/** Number formatting for the page: fixed locale, so the same results render the same bytes. */
const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const int = (n: number): string => grouped.format(Math.round(n));
export const dec1 = (n: number): string => oneDecimal.format(n);
export const dec2 = (n: number): string => n.toFixed(2);
export const dec4 = (n: number): string => n.toFixed(4);
export const signedPercent = (fraction: number): string =>
  Number.isFinite(fraction) ? `${fraction >= 0 ? "+" : ""}${(fraction * 100).toFixed(1)}%` : "+∞";
export const sci = (n: number): string => (n === 0 ? "0" : n.toExponential(1));

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
