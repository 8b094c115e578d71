/**
 * How each product's delivery path, as configured (the seed's settings, untuned), can lose
 * records to a kill -9: the page names it beside a loss so the number comes with its cause.
 * A product whose path cannot lose records has none: a loss there is shown as unexplained.
 */
const MECHANISMS: Record<string, string> = {
  faststream:
    "outputs are published fire-and-forget (no_confirm=True) and AckPolicy.ACK commits the batch's offset when the handler returns, before the broker has acknowledged those outputs: what aiokafka still held when the process was killed is committed and never replayed",
};

export function lossMechanism(productId: string): string | undefined {
  return MECHANISMS[productId.split("-")[0] as string];
}
