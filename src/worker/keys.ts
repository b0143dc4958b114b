// The session's key registry: what every signature is verified against. A change of keys
// re-verifies every record (Ed25519 on the pool when there is one), reads AgentDNA inputs again
// where a DID's key-file keys changed, and sends the page the summaries that changed.
import { applyKeys, applyKeysWith, type VerifyMany } from '../core/agdx/verify';
import { applyAgentDnaTrust } from '../core/agentdna/trust';
import { didKeys, inspectInput } from '../core/inspect';
import type { RegistryEntry } from '../core/keys/keys';
import type { InspectedRecord } from '../core/records';
import type { Handlers } from '../wire/protocol';
import type { RecordSummary } from '../wire/summary-pack';
import type { SessionState } from './session-state';
import { packed, summaryCounts, summaryFrom } from './summarize';

export class Keys {
  private keys: readonly RegistryEntry[] = [];

  /** `verifyMany` hands Ed25519 checks to other threads (the worker's pool); without it they run here. */
  constructor(
    private readonly state: SessionState,
    private readonly verifyMany?: VerifyMany,
  ) {}

  /** The registry as it is now. */
  get registry(): readonly RegistryEntry[] {
    return this.keys;
  }

  /** The records with their signatures decided against the registry (on the pool when there is one). */
  async verify(records: InspectedRecord[]): Promise<InspectedRecord[]> {
    if (!this.keys.length) return records;
    if (this.verifyMany) return applyKeysWith(records, this.keys, this.verifyMany);
    return applyKeys(records, this.keys);
  }

  /** Replaces the key registry and re-verifies every record; returns the summaries that changed. */
  set(keys: readonly RegistryEntry[]): Promise<RecordSummary[]> {
    return this.state.exclusive(() => this.setNow(keys));
  }

  private async setNow(keys: readonly RegistryEntry[]): Promise<RecordSummary[]> {
    const state = this.state;
    // The records as they were: their summaries are what changed ones are compared with.
    const was = state.records.slice();
    const before = didKeys(this.keys);
    this.keys = keys;
    // AgentDNA signatures bound by a key file's secp256k1 key depend on the keys themselves: read
    // the inputs whose envelopes name a DID whose keys changed again (their verdicts, findings and
    // mode codes may change); the trust of every other workflow is re-applied below.
    const changedDids = changedKeyDids(before, didKeys(keys));
    if (changedDids.size) this.rereadAgentDna(changedDids);
    const verified = keys.length ? await this.verify(state.records) : applyKeys(state.records, keys);
    ({ records: state.records, workflows: state.workflows } = applyAgentDnaTrust(verified, state.workflows, keys));
    // Quarantine facts rest on signatures: the folds change with the keys (the graph does not).
    state.log = state.refold();
    const changed: RecordSummary[] = [];
    state.records.forEach((r, key) => {
      const kept = state.summaries.get(key);
      if (!kept) return; // still streaming in: its summary is made when it goes to the page
      const old = summaryFrom(key, was[key], kept);
      // What it read of its envelope stays (the keys change no operation or time): only the counts are made again.
      const s = summaryFrom(key, r, { ...kept, ...summaryCounts(r, state.logRules(key), state.blanked.has(key)) });
      if (
        old.signature !== s.signature ||
        old.trusted !== s.trusted ||
        old.trustNote !== s.trustNote ||
        old.valid !== s.valid ||
        old.warnings !== s.warnings ||
        old.errors !== s.errors ||
        old.summary !== s.summary
      )
        changed.push(s);
      state.summaries.set(s);
    });
    state.summariesChanged();
    return changed;
  }

  /** Reads again every AgentDNA input with an envelope from one of `dids`, in place (same records, same keys). */
  private rereadAgentDna(dids: ReadonlySet<string>): void {
    const state = this.state;
    const inputs = new Set<number>();
    for (const w of state.workflows) if (w.envelopes.some((e) => e.from !== null && dids.has(e.from))) inputs.add(state.inputOf[w.record]);
    for (const input of inputs) {
      const first = state.inputOf.indexOf(input);
      const count = state.inputs[input].records;
      const again = inspectInput(input, { name: state.inputs[input].name, bytes: state.inputBytes[input] }, this.keys, false);
      // The same bytes read the same way give the same records; anything else keeps what was there.
      if (again.records.length !== count) continue;
      state.records.splice(first, count, ...again.records);
      state.workflows = [
        ...state.workflows.filter((w) => w.record < first || w.record >= first + count),
        ...again.workflows.map((w) => ({ ...w, record: w.record + first })),
      ];
    }
    if (inputs.size) state.workflows.sort((a, b) => a.record - b.record);
  }
}

/** The DIDs whose secp256k1 key-file keys differ between two registries (didKeys maps). */
function changedKeyDids(a: Map<string, Uint8Array[]> | undefined, b: Map<string, Uint8Array[]> | undefined): Set<string> {
  const text = (m: Map<string, Uint8Array[]> | undefined, did: string) =>
    (m?.get(did) ?? [])
      .map((k) => k.join(','))
      .sort()
      .join(';');
  const out = new Set<string>();
  for (const did of new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])])) if (text(a, did) !== text(b, did)) out.add(did);
  return out;
}

/** The requests the registry answers. */
export function keysHandlers(keys: Keys) {
  return {
    async keys({ keys: registry }, ctx) {
      return packed(await keys.set(registry), ctx);
    },
  } satisfies Partial<Handlers>;
}
