/** The --max-cost budget: one limit shared by every run that draws on it (one `rllm eval`, or every cell of an eval set). */

/** One run's side of a budget: what its recorded episodes and other calls (the judge's) spent, and what it has in flight. */
export class CostAccount {
  /** Dollars of the recorded episodes' own calls. */
  episodeSpend = 0;
  /** Recorded, priced episodes. */
  priced = 0;
  inFlight = 0;
  /** Episodes not started because the budget would have been passed. */
  notStarted = 0;
  /** Dollars of calls outside the episodes (the judge calls of --rerank), asked when needed. */
  otherSpend: () => number = () => 0;

  /** Everything this run has spent. */
  spent(): number {
    return this.episodeSpend + this.otherSpend();
  }

  /** What one more episode is expected to cost: the run's spend so far (judge calls included) per recorded episode. */
  meanEpisodeCost(): number {
    return this.priced === 0 ? 0 : this.spent() / this.priced;
  }
}

/** A limit in dollars (none: never passed) and the accounts of the runs that share it. */
export class CostBudget {
  private readonly accounts: CostAccount[] = [];

  constructor(readonly limit: number | undefined) {}

  /** A new run's account. */
  open(): CostAccount {
    const account = new CostAccount();
    this.accounts.push(account);
    return account;
  }

  /** What every run of the budget has spent. */
  spent(): number {
    return this.accounts.reduce((total, account) => total + account.spent(), 0);
  }

  /**
   * Whether starting one more episode of `account` could pass the limit: the spend so far, plus each run's mean
   * episode cost for every episode it has in flight, plus the account's mean for the new one.
   */
  wouldPass(account: CostAccount): boolean {
    if (this.limit === undefined) return false;
    const committed = this.accounts.reduce((total, each) => total + each.spent() + each.inFlight * each.meanEpisodeCost(), 0);
    return committed + account.meanEpisodeCost() > this.limit;
  }
}
