// The red team (issue 14 item 10): links and bundles crafted as an attacker would make them, with
// the project's own encoder and by hand, opened through the worker session against an empty
// registry and against one that trusts someone else. Whatever a link holds, no verdict is one the
// opener's registry does not back, and what the link preset (filters, redaction) is said in words.
// The crafted inputs are made at test time (e2e/crafted.ts, shared with e2e/redteam.spec.ts).
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../cli/main';
import { fromHex, utf8Encode } from '../core/bytes';
import { isDidEntry, parseKeys, type RegistryEntry } from '../core/keys/keys';
import { applyChange, mergeRegistry } from '../core/keys/registry';
import type { SignatureVerdict } from '../core/model';
import type { Report } from '../core/report';
import { decodePermalink, encodeBundle, encodePermalink, type ShareState } from '../core/share/permalink';
import { displayText } from '../ui/format';
import { describeFilter, filterFromLink, hiddenWords, ignoredFilters, redactionWords } from '../ui/shared-view';
import {
  agdxKeyEntry,
  agdxSeed,
  BIDI_NAME,
  bindingKeyFile,
  borrowedQuarantine,
  chainWorkflow,
  didKeyFile,
  forgedEnvelope,
  HOSTILE,
  didRegistry,
  freshAgent,
  freshWorkflow,
  handBundle,
  handLink,
  inflationBombLink,
  itemBomb,
  otherKeyFile,
  otherRegistry,
  readVector,
  rewrapped,
  signedAgdx,
  tamperedSignedCommand,
  ulid,
  view,
} from '../../e2e/crafted';
import { InspectorSession } from './session';

const agent = freshAgent('unit suite');
const workflow = freshWorkflow(agent);
const tamperedWorkflow = freshWorkflow(agent, { tamperTip: true });
const signedCommand = readVector('agdx/made/signed_command.bin');
const REGISTRIES: [string, () => RegistryEntry[]][] = [
  ['an empty registry', () => []],
  ['a registry that trusts someone else', otherRegistry],
];
const DID_NOT_REGISTERED = /^signature valid · key bound to DID · DID not in your registry/;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** UNSAFE in a JSON text: JSON.stringify writes C0 as escapes, the rest raw. */
const UNSAFE_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\\u00[01][0-9a-f]/;

const state = (inputs: [string, Uint8Array][], patch: Partial<ShareState> = {}): ShareState => ({
  inputs: inputs.map(([name, bytes]) => ({ name, bytes })),
  redacted: false,
  view: view() as ShareState['view'],
  ...patch,
});

async function session(keys: RegistryEntry[]): Promise<InspectorSession> {
  const s = new InspectorSession();
  await s.setKeys(keys);
  return s;
}

/** Opens a link in a fresh session; it must open. */
async function openLink(fragment: string, keys: RegistryEntry[]) {
  const s = await session(keys);
  const opened = await s.open(fragment);
  expect(opened.error).toBeNull();
  return { s, opened, view: opened.view! };
}

/** Drops a bundle on a fresh session; it must open. */
async function openBundle(bytes: Uint8Array, keys: RegistryEntry[]) {
  const s = await session(keys);
  const opened = await s.load([{ name: 'shared.eibundle', data: new Blob([bytes.slice()]) }]);
  expect(opened.problems).toEqual([]);
  return { s, opened, view: opened.view! };
}

/** Whether an entry of the registry backs a signature's signer: the invariant every trusted verdict must meet. */
function backed(sig: SignatureVerdict, keys: RegistryEntry[]): boolean {
  return keys.some((e) => !e.revoked && (isDidEntry(e) ? e.did === sig.signer : e.id === sig.key_id || (sig.signer !== null && e.agent === sig.signer)));
}

/** Every record of a session: trusted only where the registry backs it. Returns the trusted ones' input names. */
function trustedOnlyWhereBacked(s: InspectorSession, keys: RegistryEntry[]): string[] {
  const trusted: string[] = [];
  for (let key = 0; key < s.size; key++) {
    const d = s.detail(key)!;
    if (d.signature.trusted || d.summary.trusted) {
      expect(backed(d.signature, keys), `${d.inputName} #${d.summary.index} is trusted without a registry entry`).toBe(true);
      trusted.push(d.inputName);
    }
    for (const e of d.workflow?.envelopes ?? []) if (e.trusted) expect(keys.some((k) => isDidEntry(k) && k.did === e.signer && !k.revoked)).toBe(true);
  }
  const report = JSON.parse(s.report().json) as Report;
  expect(report.records.filter((r) => r.signature.trusted).length).toBe(trusted.length);
  return trusted;
}

describe('a workflow signed by a freshly made key, with `from` its own DID', () => {
  for (const [name, keys] of REGISTRIES) {
    it(`${name}: valid and bound, NOT trusted, "DID not in your registry", by link and by bundle`, async () => {
      const shared = state([['fresh.json', workflow]]);
      for (const { s, opened } of [await openLink(await encodePermalink(shared), keys()), await openBundle(await encodeBundle(shared), keys())]) {
        expect(opened.records.map((r) => [r.format, r.signature, r.valid, r.trusted])).toEqual([['agentdna.workflow', 'valid', true, false]]);
        const d = s.detail(0)!;
        expect(d.signature).toMatchObject({ status: 'valid', trusted: false, signer: agent.did });
        expect(d.signature.reason).toMatch(DID_NOT_REGISTERED);
        expect(d.workflow!.envelopes).toHaveLength(2);
        for (const e of d.workflow!.envelopes)
          expect(e).toMatchObject({
            signature: 'valid',
            did_match: true,
            signer: agent.did,
            trusted: false,
            trust_reason: 'signature valid · key bound to DID · DID not in your registry',
          });
        expect(trustedOnlyWhereBacked(s, keys())).toEqual([]);
      }
    });
  }

  it('the control: the opener who registered that DID trusts it (the suite can tell the difference)', async () => {
    const { s, opened } = await openLink(await encodePermalink(state([['fresh.json', workflow]])), didRegistry(agent.did));
    expect(opened.records.map((r) => [r.signature, r.trusted])).toEqual([['valid', true]]);
    expect(s.detail(0)!.signature.reason).toMatch(/^trusted \(registered-by-the-opener\)/);
    expect(trustedOnlyWhereBacked(s, didRegistry(agent.did))).toEqual(['fresh.json']);
  });
});

describe('a link cannot carry keys', () => {
  // Key-like members everywhere an attacker could put them, and a key file among the inputs.
  const payload = {
    v: 1,
    keys: [{ agent: 'attacker', did: agent.did }],
    registry: { keys: [{ agent: 'attacker', did: agent.did }] },
    trusted: true,
    inputs: [
      { name: 'fresh.json', bytes: workflow, keys: [{ did: agent.did }], trusted: true, signer: agent.did },
      { name: 'keys.json', bytes: new TextEncoder().encode(didKeyFile(agent.did, 'attacker')) },
    ],
    redacted: false,
    view: { ...view({ filters: { keys: agent.did, trusted: 'true', validity: 'valid' } }), keys: [{ did: agent.did }], registry: agent.did },
  };

  it('the decoded link holds inputs, redaction and view only, each input a name and bytes: nothing else survives', async () => {
    const decoded = await decodePermalink(handLink(payload));
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(Object.keys(decoded.state).sort()).toEqual(['inputs', 'redacted', 'view']);
    expect(decoded.state.inputs.map((i) => Object.keys(i).sort())).toEqual([
      ['bytes', 'name'],
      ['bytes', 'name'],
    ]);
    expect(Object.keys(decoded.state.view).sort()).toEqual(['filters', 'selected', 'tab', 'viewport']);
    // Filters are strings for the list; the ones that are no filter are ignored, and the banner names them.
    expect(filterFromLink(decoded.state.view.filters)).toEqual({ validity: 'valid' });
    expect(ignoredFilters(decoded.state.view.filters)).toEqual(['keys', 'trusted']);
  });

  for (const [name, keys] of REGISTRIES) {
    it(`${name}: the key-like members and the key file change nothing: the fresh DID stays untrusted, in the link and after it`, async () => {
      for (const { s } of [await openLink(handLink(payload), keys()), await openBundle(handBundle(payload), keys())]) {
        const d = s.detail(0)!;
        expect(d.signature).toMatchObject({ status: 'valid', trusted: false, signer: agent.did });
        expect(d.signature.reason).toMatch(DID_NOT_REGISTERED);
        // The key file is an input like any other: read as a record, never as keys.
        expect(s.detail(1)!.summary).toMatchObject({ signature: 'unsigned', trusted: false });
        // The session's registry is the opener's still: the same workflow loaded afterwards is not trusted either.
        const later = await s.load([{ name: 'fresh-again.json', data: new Blob([workflow.slice()]) }]);
        expect(later.records.map((r) => [r.signature, r.trusted])).toEqual([['valid', false]]);
        expect(trustedOnlyWhereBacked(s, keys())).toEqual([]);
      }
    });
  }
});

describe('a forged `redacted` flag', () => {
  // Nothing here was redacted: the bodies are whole (one of them tampered with), and the link says otherwise.
  const inputs: [string, Uint8Array][] = [
    ['tampered-command.bin', tamperedSignedCommand()],
    ['tampered-workflow.json', tamperedWorkflow],
    ['signed_command.bin', signedCommand],
  ];

  for (const [name, keys] of REGISTRIES) {
    it(`${name}: every verdict is the one the same bytes get unshared; the record and the banner say the claim does not hold`, async () => {
      const plain = await session(keys());
      const truth = (await plain.load(inputs.map(([n, b]) => ({ name: n, data: new Blob([b.slice()]) })))).records.map((r) => [
        r.signature,
        r.valid,
        r.trusted,
      ]);
      // Through the encoder (redacted is a field anyone can set) and by hand.
      const byEncoder = await encodePermalink(state(inputs, { redacted: true }));
      const byHand = handLink({ v: 1, inputs: inputs.map(([n, bytes]) => ({ name: n, bytes })), redacted: true, view: view() });
      for (const fragment of [byEncoder, byHand]) {
        const { s, opened, view: shared } = await openLink(fragment, keys());
        expect(opened.records.map((r) => [r.signature, r.valid, r.trusted])).toEqual(truth);
        expect(shared).toMatchObject({ redacted: true, notBlank: 3 });
        // The tampered ones stay what they are: invalid where the key is known (AgentDNA always: the key is recovered).
        expect(opened.records[0].signature).toBe(keys().length ? 'invalid' : 'unknown_key');
        expect(opened.records[1].signature).toBe('invalid');
        for (let key = 0; key < 3; key++) {
          const d = s.detail(key)!;
          expect(d.summary.redacted).toBe(false);
          expect(d.signature.reason).toMatch(
            /^the link says bodies were redacted, but this body is not blank: the claim does not hold for this record, and this verdict is over the body as received: /,
          );
        }
        expect(redactionWords(shared)).toBe(
          'the sender says bodies were redacted: signatures over them cannot be re-checked. But 3 records of the link have bodies that are not blank: the claim does not hold for them, and their verdicts are over the bodies as received.',
        );
        expect(trustedOnlyWhereBacked(s, keys())).toEqual(keys().length ? ['signed_command.bin'] : []);
      }
    });
  }

  it('a link really redacted says so, record by record: its bodies are blank, and the claim holds', async () => {
    const sender = await session([]);
    await sender.load([
      { name: 'signed_command.bin', data: new Blob([signedCommand.slice()]) },
      { name: 'fresh.json', data: new Blob([workflow.slice()]) },
    ]);
    const shared = await sender.share({ selectedKey: null, selected: null, tab: 'records', viewport: null, filters: {} }, true, false);
    const { s, opened, view: v } = await openLink(shared.fragment, otherRegistry());
    expect(v).toMatchObject({ redacted: true, notBlank: 0 });
    expect(opened.records.map((r) => r.redacted)).toEqual([true, true]);
    // Over blanked bodies the signatures fail: the true verdict over these bytes, never trusted.
    expect(opened.records.map((r) => [r.signature, r.trusted])).toEqual([
      ['invalid', false],
      ['invalid', false],
    ]);
    expect(s.detail(0)!.signature.reason).toMatch(
      /^the link says bodies were redacted before it was shared, and this body is blank as redaction leaves it: the signature cannot be re-checked/,
    );
    expect(redactionWords(v)).toBe('the sender says bodies were redacted: signatures over them cannot be re-checked.');
  });
});

describe("filters, tab and selection of the attacker's choosing", () => {
  const inputs: [string, Uint8Array][] = [
    ['fresh.json', workflow],
    ['tampered-workflow.json', tamperedWorkflow],
    ['conversation.cborseq', readVector('agdx/made/conversation.cborseq')],
    ['bomb.cbor', itemBomb()],
  ];
  // fromEntries: a literal `__proto__:` would set the prototype, not a member.
  const linkView = view({
    filters: Object.fromEntries([
      ['validity', 'valid'],
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]),
    tab: '<img src=x onerror=alert(1)>',
    selected: { input: 7, index: 0 },
  });

  for (const [name, keys] of REGISTRIES) {
    it(`${name}: a filter that hides the invalid records comes back as the link set it, and the words say how many it hides`, async () => {
      const {
        s,
        opened,
        view: v,
      } = await openLink(handLink({ v: 1, inputs: inputs.map(([n, bytes]) => ({ name: n, bytes })), redacted: false, view: linkView }), keys());
      const filter = filterFromLink(v.filters);
      expect(filter).toEqual({ validity: 'valid' });
      expect(ignoredFilters(v.filters).sort()).toEqual(['__proto__', 'constructor']);
      const total = opened.records.length;
      const invalid = opened.records.filter((r) => !r.decoded || !r.valid).length;
      expect(invalid).toBeGreaterThanOrEqual(3); // the tampered workflow, the bomb, the conversation's invalid records
      const shown = s.filter(filter).length;
      expect(shown).toBe(total - invalid);
      expect(describeFilter(filter)).toBe('validity = valid');
      expect(hiddenWords(shown, total)).toBe(`${invalid} of ${total} records hidden`);
      // The selection points nowhere: nothing selected. The tab is the link's text, for the page to refuse.
      expect(v.selectedKey).toBeNull();
      expect(v.tab).toBe('<img src=x onerror=alert(1)>');
      expect(trustedOnlyWhereBacked(s, keys())).toEqual([]);
    });
  }
});

describe('bidi-laden and control-laden input names', () => {
  const names = [BIDI_NAME, 'title\u001b]0;pwned\u0007.cbor', 'x\r\nsignature: valid, trusted.bin', 'rli\u2067evil\u2069.json'];
  const bytes = [workflow, signedCommand, tamperedWorkflow, itemBomb(100)];

  it("are kept as data by the session, and shown escaped by the page's formatter", async () => {
    const { opened } = await openLink(await encodePermalink(state(names.map((n, i) => [n, bytes[i]]))), []);
    expect(opened.inputs.map((i) => i.name)).toEqual(names);
    const shown = names.map(displayText);
    expect(shown[0]).toBe('invoice⟨U+202E⟩gpj.cbor');
    expect(shown[1]).toBe('title⟨U+001B⟩]0;pwned⟨U+0007⟩.cbor');
    expect(shown[2]).toBe('x⟨U+000D⟩⟨U+000A⟩signature: valid, trusted.bin');
    for (const t of shown) expect(t).not.toMatch(UNSAFE);
  });

  it('the CLI prints none of their controls raw', async () => {
    const files = Object.fromEntries(names.map((n, i) => [n, bytes[i]]));
    const { out } = await cli([...names], files);
    // Newlines separate its lines; nothing else unsafe.
    expect(out.replaceAll('\n', '')).not.toMatch(UNSAFE);
    expect(out).toContain('invoice\\u202egpj.cbor');
  });
});

describe('item bombs', () => {
  for (const [name, keys] of REGISTRIES) {
    it(`${name}: an input of one array past the item cap is cbor/too-many-items, and the session goes on`, async () => {
      const sequence = new Uint8Array([...signedCommand, ...itemBomb()]);
      const shared = state([
        ['bomb.cbor', itemBomb()],
        ['then-bomb.cborseq', sequence],
      ]);
      for (const { s, opened } of [await openLink(await encodePermalink(shared), keys()), await openBundle(await encodeBundle(shared), keys())]) {
        expect(opened.records.map((r) => [r.input, r.decoded, r.errorCode])).toEqual([
          [0, false, 'cbor/too-many-items'],
          [1, true, null],
          [1, false, 'cbor/too-many-items'],
        ]);
        expect(s.detail(0)!.error!.message).toMatch(/holds more than 65536 items \(counted from the heads; nothing was built\)/);
        // Usable: a good record loads and is judged as ever.
        const good = await s.load([{ name: 'signed_command.bin', data: new Blob([signedCommand.slice()]) }]);
        expect(good.records.map((r) => [r.decoded, r.valid, r.signature, r.trusted])).toEqual([
          [true, true, keys().length ? 'valid' : 'unknown_key', keys().length > 0],
        ]);
        trustedOnlyWhereBacked(s, keys());
      }
    });
  }

  it('a link whose own structure is an item bomb does not open; the next link does', async () => {
    const s = await session([]);
    const filters = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`f${i}`, 'x']));
    const opened = await s.open(handLink({ v: 1, inputs: [], redacted: false, view: view({ filters }) }));
    expect(opened.error).toMatch(/damaged .*holds more than 65536 items/);
    expect(opened.records).toEqual([]);
    const next = await s.open(await encodePermalink(state([['fresh.json', workflow]])));
    expect(next.error).toBeNull();
    expect(next.records.map((r) => [r.signature, r.trusted])).toEqual([['valid', false]]);
  });
});

describe('a link or bundle that decompresses past 8 MiB', () => {
  it('is refused with its message, and what was loaded stays', async () => {
    const s = await session([]);
    await s.load([{ name: 'fresh.json', data: new Blob([workflow.slice()]) }]);
    const link = inflationBombLink();
    expect(link.length).toBeLessThan(20_000);
    const opened = await s.open(link);
    expect(opened.error).toBe(
      'This link would decompress to more than 8 MiB, the most a link may hold here; it was not opened (decompression stopped at 8 MiB). Load the files themselves instead.',
    );
    expect(opened.records).toEqual([]);
    expect(s.size).toBe(1);

    const bundle = new Uint8Array([...new TextEncoder().encode('EIBUNDLE'), 1, ...Buffer.from(link.slice(3), 'base64url')]);
    const dropped = await s.load([{ name: 'bomb.eibundle', data: new Blob([bundle]) }]);
    expect(dropped.problems).toEqual([
      'bomb.eibundle: This bundle would decompress to more than 8 MiB, the most a bundle may hold here; it was not opened (decompression stopped at 8 MiB). Load the files themselves instead.',
    ]);
    expect(dropped.view).toBeNull();
    expect(s.size).toBe(1);
  });
});

// ---------- the command line over the same crafted inputs ----------

async function cli(args: string[], files: Record<string, Uint8Array | string>): Promise<{ code: number; out: string; stdout: string }> {
  let out = '';
  let stdout = '';
  const io: CliIo = {
    readFile: async (p) => {
      const f = files[p];
      if (f === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return typeof f === 'string' ? new TextEncoder().encode(f) : f;
    },
    readStdin: async () => new Uint8Array(),
    stdout: (t) => {
      out += t;
      stdout += t;
    },
    stderr: (t) => (out += t),
  };
  return { code: await run(args, io), out, stdout };
}

describe('the CLI over the crafted inputs', () => {
  const files: Record<string, Uint8Array | string> = {
    'fresh.json': workflow,
    'tampered-workflow.json': tamperedWorkflow,
    'tampered-command.bin': tamperedSignedCommand(),
    [BIDI_NAME]: workflow,
    'bomb.cbor': itemBomb(),
    'other-keys.json': otherKeyFile(),
    'fresh-keys.json': didKeyFile(agent.did),
  };
  const inputs = ['fresh.json', 'tampered-workflow.json', 'tampered-command.bin', BIDI_NAME, 'bomb.cbor'];
  /** The signature of each record, as the readable summary prints it. */
  const signatureLines = (out: string) =>
    out
      .split('\n')
      .filter((l) => l.startsWith('      decoded: '))
      .map((l) => l.slice(l.indexOf('signature: ') + 'signature: '.length));

  for (const [name, keyArgs] of [
    ['no key file', []],
    ['a key file of someone else', ['--keys', 'other-keys.json']],
  ] as const) {
    it(`${name}: never "trusted" for the fresh DID, in the summary or the report, and --require-trusted fails`, async () => {
      const human = await cli(['inspect', ...keyArgs, ...inputs], files);
      expect(signatureLines(human.out)).toEqual([
        'valid, not trusted',
        'invalid',
        keyArgs.length ? 'invalid (key fe812c12f3ab4ce6)' : 'unknown key (key fe812c12f3ab4ce6)',
        'valid, not trusted',
      ]);
      // The bomb is an input nothing could be read from, as the app shows it: not a record.
      expect(human.out).toContain('bomb.cbor  (');
      expect(human.out).toMatch(/\n {2}unreadable input, not a record: cbor\/too-many-items: /);
      expect(human.out).not.toMatch(/, trusted/);
      // It says why: the DID is only bound to its key, not in the registry.
      expect(human.out).toMatch(/why: signature valid · key bound to DID · DID not in your registry/);
      const json = await cli(['inspect', '--json', ...keyArgs, ...inputs], files);
      const report = JSON.parse(json.out) as Report;
      expect(report.records.map((r) => r.signature.trusted)).toEqual([false, false, false, false, false]);
      for (const i of [0, 3]) {
        expect(report.records[i].signature).toMatchObject({ status: 'valid', signer: agent.did });
        expect(report.records[i].signature.reason).toMatch(DID_NOT_REGISTERED);
      }
      expect((await cli(['inspect', '--require-trusted', ...keyArgs, 'fresh.json'], files)).code).toBe(1);
    });
  }

  it('the control: with the fresh DID in a key file, and only then, it is trusted', async () => {
    const human = await cli(['inspect', '--keys', 'fresh-keys.json', 'fresh.json'], files);
    expect(signatureLines(human.out)).toEqual(['valid, trusted']);
    expect((await cli(['inspect', '--require-trusted', '--keys', 'fresh-keys.json', 'fresh.json'], files)).code).toBe(0);
  });
});

// ---------- issue 23: trust from signed facts, key files that fail closed ----------

describe('issue 23: a window bypassed by an unsigned log time', () => {
  const r = rewrapped();
  const files = { 'bare.cbor': r.record, 'rewrapped.json': r.export, 'keys.json': r.keyFile };

  it('the rewrapped bytes are NOT trusted: the signed ULID time decides, the forged log time only narrows', async () => {
    const s = await session(parseKeys(r.keyFile).keys);
    await s.load([
      { name: 'bare.cbor', data: new Blob([r.record.slice()]) },
      { name: 'rewrapped.json', data: new Blob([r.export]) },
    ]);
    for (const key of [0, 1]) {
      const d = s.detail(key)!;
      expect(d.signature).toMatchObject({ status: 'valid', trusted: false, signer: 'planner' });
      expect(d.signature.reason).toContain("the record id's ULID time (2026-06-01T12:00:00.000Z) is after key");
    }
    const wrapped = s.detail(1)!;
    expect(wrapped.summary.format).toBe('agdx.record');
    // The wrapper's time is said to be outside the signature, and its disagreement is a finding.
    expect(wrapped.signature.not_covered).toContain('log_time_micros');
    expect(wrapped.findings.map((f) => f.rule)).toContain('agdx/log-time/skew');
    expect(trustedOnlyWhereBacked(s, parseKeys(r.keyFile).keys)).toEqual([]);
  });

  it('the CLI: exit 1 under --require-trusted, the reason names the signed time, the report lists the log time as not covered', async () => {
    expect((await cli(['inspect', '--require-trusted', '--keys', 'keys.json', 'rewrapped.json'], files)).code).toBe(1);
    const json = await cli(['inspect', '--json', '--keys', 'keys.json', 'rewrapped.json'], files);
    const report = JSON.parse(json.out) as Report;
    expect(report.records[0].signature).toMatchObject({ status: 'valid', trusted: false });
    expect(report.records[0].signature.not_covered).toContain('log_time_micros');
    expect(report.records[0].findings.find((f) => f.rule === 'agdx/log-time/skew')?.message).toMatch(
      /^the log time 2024-06-01T00:00:00.000Z is 730 d before the record id's ULID time 2026-06-01T12:00:00.000Z/,
    );
  });
});

describe('issue 23: key files fail closed', () => {
  const r = rewrapped();
  const entry = (members: Record<string, unknown>) =>
    JSON.stringify({ keys: [{ ...JSON.parse(r.keyFile).keys[0], not_before_micros: 0, not_after_micros: 0, ...members }] });

  for (const revoked of ['"true"', '1']) {
    it(`"revoked": ${revoked} is an error naming the file, the entry and the member: the CLI exits 2`, async () => {
      const text = entry({})
        .replace('"revoked":false', '')
        .replace(/\}\]\}$/, `,"revoked":${revoked}}]}`);
      const { code, out } = await cli(['inspect', '--keys', 'keys.json', 'bare.cbor'], { 'keys.json': text, 'bare.cbor': r.record });
      expect(code).toBe(2);
      expect(out).toContain(
        `envelope-inspector: bad keys in keys.json: key 0 (agent "planner"): member "revoked" must be true or false (a JSON boolean), found ${revoked}`,
      );
    });
  }

  it('a JWK keeps its window: [1, 2] trusts nothing today, as the same window on a public_key entry does not', async () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(fromHex(JSON.parse(r.keyFile).keys[0].public_key)!).toString('base64url'), agent: 'planner' };
    const files = {
      'bare.cbor': r.record,
      'jwk.json': JSON.stringify({ ...jwk, not_before_micros: 1, not_after_micros: 2 }),
      'open.json': JSON.stringify(jwk),
    };
    expect((await cli(['inspect', '--require-trusted', '--keys', 'open.json', 'bare.cbor'], files)).code).toBe(0);
    const windowed = await cli(['inspect', '--json', '--require-trusted', '--keys', 'jwk.json', 'bare.cbor'], files);
    expect(windowed.code).toBe(1);
    expect((JSON.parse(windowed.out) as Report).records[0].signature.reason).toMatch(/is after key [0-9a-f]{16} of planner's window closed$/);
  });

  it('an entry without an agent is refused, saying where (a bare hex key file too)', async () => {
    const files = { 'planner.hex': JSON.parse(r.keyFile).keys[0].public_key, 'bare.cbor': r.record };
    const { code, out } = await cli(['inspect', '--keys', 'planner.hex', 'bare.cbor'], files);
    expect(code).toBe(2);
    expect(out).toMatch(/bad keys in planner\.hex: "[0-9a-f]{20}…": no agent: every entry names the agent it belongs to/);
    // Its sidecar gives the agent (and the rest of the entry's members).
    const withSidecar = await cli(['inspect', '--require-trusted', '--keys', 'planner.hex', 'bare.cbor'], {
      ...files,
      'planner.hex.json': '{"agent":"planner"}',
    });
    expect(withSidecar.code).toBe(0);
  });
});

describe("issue 23: a key bound to someone else's DID waits for Accept", () => {
  const alice = freshAgent('alice');
  const mallory = freshAgent('mallory');
  const forged = forgedEnvelope(mallory, alice.did);
  const files = { 'forged.json': forged, 'alice.json': didKeyFile(alice.did, 'alice'), 'mallory.json': bindingKeyFile(mallory, alice.did) };

  it("the CLI does not add it: Mallory's envelope from Alice's DID is not trusted (the binding is not used), and stderr names the conflict", async () => {
    const { code, out } = await cli(['inspect', '--require-trusted', '--keys', 'alice.json', '--keys', 'mallory.json', 'forged.json'], files);
    expect(code).toBe(1);
    expect(out).toContain(`envelope-inspector: mallory.json: key `);
    expect(out).toContain(
      `not added: conflict: binds this key to DID ${alice.did.slice(0, 12)}…${alice.did.slice(-6)}, which your registry already holds as DID`,
    );
    const json = JSON.parse((await cli(['inspect', '--json', '--keys', 'alice.json', '--keys', 'mallory.json', 'forged.json'], files)).stdout) as Report;
    expect(json.records[0].signature).toMatchObject({ status: 'invalid', trusted: false });
  });

  it('the merge holds it back as a conflict; accepted, it is the reader who chose to trust it', async () => {
    const registry = parseKeys(didKeyFile(alice.did, 'alice')).keys;
    const merged = mergeRegistry(registry, parseKeys(bindingKeyFile(mallory, alice.did)).keys);
    expect(merged.registry).toEqual(registry);
    expect(merged.changes).toEqual([expect.objectContaining({ applied: false, add: expect.anything() })]);
    const accepted = applyChange(merged.registry, merged.changes[0]);
    const s = await session(accepted);
    await s.load([{ name: 'forged.json', data: new Blob([forged.slice()]) }]);
    expect(s.detail(0)!.signature).toMatchObject({ status: 'valid', trusted: true, signer: alice.did });
    expect(s.detail(0)!.signature.reason).toMatch(/^trusted \(bafybmi[^)]*\): key bound to DID by your key file/);
  });
});

describe('issue 23: a chain is as trusted as its least trusted signer', () => {
  const worker = freshAgent('worker');
  const stranger = freshAgent('stranger');
  const chain = chainWorkflow(worker, stranger);

  it('a trusted tip over a parent signed by a DID not in the registry is not trusted, and says which', async () => {
    const keys = didRegistry(worker.did);
    const s = await session(keys);
    await s.load([{ name: 'chain.json', data: new Blob([chain.slice()]) }]);
    const d = s.detail(0)!;
    expect(d.workflow!.envelopes.map((e) => e.trusted)).toEqual([true, false]);
    expect(d.signature).toMatchObject({ status: 'valid', trusted: false, signer: worker.did });
    expect(d.signature.reason).toMatch(
      /^not trusted: tip trusted \(registered-by-the-opener\); 1 of 1 parent signed by a DID not in your registry \(envelope\.parent_envelope\[0\]\) — tip valid: /,
    );
    const { code } = await cli(['inspect', '--require-trusted', '--keys', 'worker.json', 'chain.json'], {
      'chain.json': chain,
      'worker.json': didKeyFile(worker.did),
    });
    expect(code).toBe(1);
  });
});

describe('issue 23: quarantine needs an operator key and a source that is its agent', () => {
  const q = borrowedQuarantine();

  it('an operator key of "ops" under a source that claims "planner" backs nothing: "by ops, claimed as planner"', async () => {
    const s = await session(parseKeys(q.keyFile).keys);
    await s.load([{ name: 'q.cbor', data: new Blob([q.record.slice()]) }]);
    expect(s.detail(0)!.signature).toMatchObject({ status: 'valid', trusted: false, signer: 'ops' });
    const fact = s.folds(null).agents.find((a) => a.id === 'booker')!.quarantine[0];
    expect(fact).toMatchObject({ backing: 'non-operator-signed', issuer: 'planner' });
    expect(fact.sentence).toMatch(/^Quarantine of "booker" by "ops", claimed as "planner": signed, but not by a key trusted as an operator's/);
    expect(s.detail(0)!.findings.map((f) => f.rule)).toContain('agdx/fold/unauthorised');
  });
});

describe('issue 23: smaller holes', () => {
  it('--require-trusted fails when there is nothing to trust: an Iggy export with no messages', async () => {
    const files = { 'empty-export.json': '{"partition_id":1,"current_offset":0,"count":0,"messages":[]}' };
    expect((await cli(['inspect', 'empty-export.json'], files)).code).toBe(0);
    expect((await cli(['inspect', '--require-trusted', 'empty-export.json'], files)).code).toBe(1);
    expect((await cli(['inspect', '--json', '--require-trusted', 'empty-export.json'], files)).code).toBe(1);
  });

  it("a record's control and bidi characters reach no graph face (text, title, aria-label, SVG) and no Markdown raw", async () => {
    const seed = agdxSeed('hostile');
    const record = signedAgdx(
      {
        kind: 'event',
        record: ulid(Date.parse('2026-06-01T12:00:00Z'), 9),
        conversation: ulid(Date.parse('2026-06-01T12:00:00Z'), 8),
        source: HOSTILE,
        target: HOSTILE,
        body: utf8Encode(HOSTILE),
      },
      seed,
      [[HOSTILE, HOSTILE]],
    );
    const s = await session(parseKeys(JSON.stringify({ keys: [agdxKeyEntry(seed, 'planner')] })).keys);
    await s.load([{ name: 'hostile.cbor', data: new Blob([record.slice()]) }]);
    // The reason quotes the record's source: raw, there (the page escapes it when it shows it).
    expect(s.detail(0)!.signature.reason).toContain(`"\u202Erennalp\\u001b[31m\\u0007`);
    const graph = s.graph([]);
    expect(graph.nodes.length).toBeGreaterThan(0);
    for (const n of graph.nodes) expect(JSON.stringify([n.title, n.subtitle, n.detail, n.fullId, n.dna, n.stream, n.badges])).not.toMatch(UNSAFE_JSON);
    // The title is the record's display type (agent.message), so the line below names its kind first.
    expect(graph.nodes.find((n) => n.kind === 'record')!.detail).toBe(`event · ${displayText(HOSTILE)} → ${displayText(HOSTILE)}`);
    const { markdown } = s.report();
    expect(markdown.replaceAll('\n', '')).not.toMatch(UNSAFE);
    expect(markdown).toContain('⟨U+202E⟩rennalp');
  });
});
