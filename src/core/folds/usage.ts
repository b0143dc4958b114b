// Usage totals while folding: token counts (and 0.7's cost_micros) summed as written.
import type { Usage } from '../agdx/envelope';
import type { UsageTotals } from './model';

export const emptyUsage = (): UsageTotals => ({ input: 0n, output: 0n, reasoning: 0n, cache_read: 0n, cache_creation: 0n, cost_micros: 0n, records: 0 });

/**
 * Sums token counts in doubles while they stay exact, spilling to bigint beyond 2^53: a fold runs
 * per slider move, and bigint arithmetic on every record costs more than the rest of the fold.
 */
export class UsageSum {
  private readonly n = [0, 0, 0, 0, 0, 0];
  private big: bigint[] | null = null;
  private count = 0;

  add(u: Usage): void {
    this.put(0, u.input_tokens);
    this.put(1, u.output_tokens);
    this.put(2, u.reasoning_output_tokens);
    this.put(3, u.cache_read_input_tokens);
    this.put(4, u.cache_creation_input_tokens);
    this.put(5, u.cost_micros);
    this.count++;
  }

  private put(k: number, v: number | bigint | undefined): void {
    if (v === undefined) return;
    if (typeof v === 'number') {
      const sum = this.n[k] + v;
      if (Number.isSafeInteger(sum)) {
        this.n[k] = sum;
        return;
      }
    }
    (this.big ??= [0n, 0n, 0n, 0n, 0n, 0n])[k] += BigInt(v);
  }

  totals(): UsageTotals {
    const at = (k: number) => BigInt(this.n[k]) + (this.big ? this.big[k] : 0n);
    return { input: at(0), output: at(1), reasoning: at(2), cache_read: at(3), cache_creation: at(4), cost_micros: at(5), records: this.count };
  }
}
