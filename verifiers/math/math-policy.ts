/** The grading policy: flags for the cases where reasonable math graders disagree, with Geo3K / MATH defaults. */
import { z } from "zod";

export const MathPolicySchema = z
  .object({
    /**
     * A bare decimal against an exact value (radical, π, fraction): accept when the exact value, rounded to the
     * decimals the response states, gives that decimal, and the decimal has at least `minSignificantDigits`.
     */
    acceptRoundedDecimals: z.boolean().default(true),
    minSignificantDigits: z.number().int().min(1).default(3),
    /** `10%` matches `10` (the MATH convention: a percent sign is decoration). */
    percentMatchesNumber: z.boolean().default(true),
    /** `10%` matches `0.1`. */
    percentMatchesFraction: z.boolean().default(true),
    /** An angle in degrees (`30^\circ`) matches its value in radians (`\frac{\pi}{6}`). Off: Geo3K answers degrees. */
    degreesMatchRadians: z.boolean().default(false),
    /** A bare comma list (`2, 5`) matches its permutations, like a set of roots; bracketed tuples stay ordered. */
    unorderedLists: z.boolean().default(true),
    /** A choice letter matches the choice's value when the row lists the choices (Geo3K). */
    choiceLetterMatchesValue: z.boolean().default(true),
    /** `x = 5` against `5`: compare the right-hand side when the left is a bare name. */
    dropVariableAssignment: z.boolean().default(true),
    /** A response with no `\boxed{}` and no answer phrase may still be graded from its last math or, when short, whole. */
    allowUnboxedFallback: z.boolean().default(true),
  })
  .strict();

/** Policy flags; every field has a default, so `{}` is the default policy. */
export type MathPolicy = z.infer<typeof MathPolicySchema>;
export type MathPolicyInput = z.input<typeof MathPolicySchema>;

/** The default policy (what a Geo3K / MATH user expects). */
export const defaultMathPolicy: MathPolicy = MathPolicySchema.parse({});
