import { mulberry32 } from "@bench/core";
import trigamma from "@stdlib/math-base-special-trigamma";
import { MIN_GROUPS_FOR_PRIOR, moderated, priorOf, trigammaInverse } from "./moderation.ts";
import { chiSquare } from "./__fixtures__/draws.ts";

describe("trigammaInverse", () => {
  it("inverts trigamma over the range a prior's degrees of freedom take", () => {
    for (const x of [0.05, 0.5, 1, 3, 20, 400]) expect(trigammaInverse(trigamma(x)) / x).toBeCloseTo(1, 6);
  });
  it("refuses a value trigamma never takes", () => {
    expect(() => trigammaInverse(0)).toThrow(RangeError);
  });
});

describe("priorOf", () => {
  it("reads no prior from fewer than MIN_GROUPS_FOR_PRIOR groups, nor from groups whose values all agree exactly", () => {
    const two = Array.from({ length: MIN_GROUPS_FOR_PRIOR - 1 }, () => ({ variance: 0.01, df: 2 }));
    expect(priorOf(two)).toBeUndefined();
    expect(priorOf([...two, { variance: 0.02, df: 0 }])).toBeUndefined();
    expect(priorOf(Array.from({ length: 5 }, () => ({ variance: 0, df: 2 })))).toBeUndefined();
  });

  it("recovers the distribution the variances were drawn from (3,000 groups of three values)", () => {
    const rng = mulberry32(7);
    const [priorDf, priorVariance] = [6, 0.01];
    const spreads = Array.from({ length: 3000 }, () => {
      const sigma2 = (priorDf * priorVariance) / chiSquare(rng, priorDf);
      return { variance: (sigma2 * chiSquare(rng, 2)) / 2, df: 2 };
    });
    const prior = priorOf(spreads)!;
    expect(prior.df).toBeGreaterThan(priorDf * 0.7);
    expect(prior.df).toBeLessThan(priorDf * 1.4);
    expect(prior.variance / priorVariance).toBeCloseTo(1, 1);
  });

  it("gives many degrees of freedom when the variances differ no more than sampling makes them", () => {
    // One σ² for every group: the excess spread of the logs is zero, read from 8,000 groups to about ±0.04, so the prior's df lies past 20.
    const rng = mulberry32(11);
    const spreads = Array.from({ length: 8000 }, () => ({ variance: (0.01 * chiSquare(rng, 2)) / 2, df: 2 }));
    const prior = priorOf(spreads)!;
    expect(prior.df).toBeGreaterThan(20);
    expect(prior.variance / 0.01).toBeCloseTo(1, 1);
  });

  it("reads a variance of zero among others without failing", () => {
    const prior = priorOf([{ variance: 0, df: 2 }, { variance: 0.01, df: 2 }, { variance: 0.02, df: 2 }, { variance: 0.005, df: 1 }]);
    expect(prior!.variance).toBeGreaterThan(0);
    expect(Number.isFinite(prior!.df) || prior!.df === Infinity).toBe(true);
  });
});

describe("moderated", () => {
  it("is the degrees-of-freedom-weighted mean of the prior's variance and the group's own", () => {
    expect(moderated({ variance: 0.04, df: 2 }, { variance: 0.01, df: 6 }, 30)).toEqual({ variance: (6 * 0.01 + 2 * 0.04) / 8, df: 8 });
  });
  it("takes the prior's variance when its degrees of freedom are infinite, its own without a prior", () => {
    expect(moderated({ variance: 0.04, df: 2 }, { variance: 0.01, df: Infinity }, 20)).toEqual({ variance: 0.01, df: 20 });
    expect(moderated({ variance: 0.04, df: 2 }, undefined, 20)).toEqual({ variance: 0.04, df: 2 });
  });
  it("never claims more degrees of freedom than the groups hold together", () => {
    expect(moderated({ variance: 0.04, df: 2 }, { variance: 0.01, df: 40 }, 12).df).toBe(12);
  });
});
