// Custom React Flow nodes: memoised, defined at module scope (nodeTypes must not change identity).
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { envelopeWords, signatureWords, verdictBadges } from '../../core/verdict';
import type { GraphRenderNode } from '../../wire/graph';
import { Identity } from '../components/Identity';

// A mapped copy: React Flow wants node data as a plain record type, which an interface is not.
export type FlowNodeData = { [K in keyof GraphRenderNode]: GraphRenderNode[K] } & { selected: boolean; onToggle: (id: string) => void; expanded: boolean };
export type FlowNode = Node<FlowNodeData>;

const PILL_TONES = {
  good: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  bad: 'bg-red-200 text-red-900 dark:bg-red-900 dark:text-red-100',
  // A valid signature the registry does not back: never green (the record list's badge has the same tone).
  untrusted: 'bg-orange-200 text-orange-950 dark:bg-orange-800 dark:text-orange-50',
  warn: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  none: 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200',
};

/** A verdict as a small coloured word; `shrink`: it gives way (cut short) before the others do. */
function Pill({
  tone,
  title,
  children,
  testId,
  shrink = false,
}: {
  tone: keyof typeof PILL_TONES;
  title?: string;
  children: React.ReactNode;
  testId?: string;
  shrink?: boolean;
}) {
  return (
    <span
      title={title}
      data-tone={tone}
      data-testid={testId}
      className={`${shrink ? 'min-w-8 shrink' : 'shrink-0'} truncate rounded px-1 text-[11px] leading-4 ${PILL_TONES[tone]}`}
    >
      {children}
    </span>
  );
}

function Frame({ data, children }: { data: FlowNodeData; children: React.ReactNode }) {
  const tone =
    data.kind === 'ghost'
      ? 'border-dashed border-slate-400 bg-slate-50 text-slate-600 dark:text-slate-400 dark:bg-slate-900'
      : data.alarm
        ? 'border-red-500 bg-red-50 dark:bg-red-950/60'
        : 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900';
  return (
    <div
      data-node-kind={data.kind}
      data-alarm={data.alarm || undefined}
      data-selected={data.selected || undefined}
      title={`${data.title}\n${data.fullId ?? data.subtitle}\n${data.detail}${data.stream ? `\nstream: ${data.stream.summary} · ${data.stream.detail}` : ''}${data.cycle ? '\nin a cycle' : ''}`}
      className={`h-full w-full overflow-hidden rounded-md border-2 px-2 py-1 text-left text-[13px] leading-[18px] shadow-sm ${tone} ${data.selected ? 'ring-4 ring-amber-400' : ''} ${data.cycle ? 'outline outline-2 outline-offset-2 outline-fuchsia-500' : ''}`}
    >
      <Handle type="target" position={Position.Right} className="!h-1.5 !w-1.5 !bg-slate-400" />
      {children}
      <Handle type="source" position={Position.Left} className="!h-1.5 !w-1.5 !bg-slate-400" />
    </div>
  );
}

/**
 * A record node's answers: valid or not, and its signature (a node is drawn only for a decoded
 * envelope, so "decoded" shows only when it is not). The signature pill reads as the list's badge:
 * green only when trusted; valid but not trusted is orange and says why.
 */
function RecordPills({ badges, timing, place }: { badges: NonNullable<FlowNodeData['badges']>; timing: FlowNodeData['timing']; place: string | null }) {
  const sig = signatureWords({ status: badges.signature, trusted: badges.trusted, note: badges.note });
  const untrusted = badges.signature === 'valid' && !badges.trusted;
  // Only the tones are read: a node does not know its finding counts.
  const b = verdictBadges({ ...badges, errors: 0, warnings: 0 });
  return (
    <div className="mt-0.5 flex gap-1 overflow-hidden">
      {/* A late answer, an unanswered command: first, as what most needs a look. */}
      {timing.map((t) => (
        <Pill key={t.mark} tone={t.mark === 'late' ? 'bad' : 'warn'} title={t.words} testId="node-timing">
          {t.mark}
        </Pill>
      ))}
      {place && (
        <Pill tone="none" title={`This record shares its id with another: it is ${place}`} testId="node-place" shrink>
          {place}
        </Pill>
      )}
      {!badges.decoded && <Pill tone="bad">undecoded</Pill>}
      {b.valid && <Pill tone={b.valid.tone}>{badges.valid ? 'valid' : 'invalid'}</Pill>}
      <Pill tone={sig.tone} title={sig.label} testId="node-signature" shrink={untrusted}>
        {sig.short}
      </Pill>
    </div>
  );
}

/** Unfolds a folded stream or fan-out, or folds an unfolded stream back (from its first chunk). */
function FoldToggle({ target, unfolded, onToggle }: { target: string; unfolded: boolean; onToggle: (id: string) => void }) {
  return (
    <button
      type="button"
      aria-label={unfolded ? 'fold the stream back' : undefined}
      className="nodrag ml-auto shrink-0 rounded border border-slate-300 px-1 text-[11px] hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      onClick={(e) => {
        e.stopPropagation();
        onToggle(target);
      }}
    >
      {unfolded ? 'fold' : 'unfold'}
    </button>
  );
}

export const RecordNode = memo(function RecordNode({ data }: NodeProps<FlowNode>) {
  const head = data.stream;
  if (head) {
    // The first chunk of an unfolded stream: its own place in it, and the stream's diagnostics.
    return (
      <Frame data={data}>
        <div className="flex items-baseline gap-1">
          <span className="shrink-0 font-semibold">{data.title}</span>
          <span className="truncate text-[11px] text-slate-600 dark:text-slate-400" data-testid="chunk-role">
            {data.detail}
          </span>
          <FoldToggle target={head.id} unfolded onToggle={data.onToggle} />
        </div>
        <div className="truncate text-[12px]" data-testid="stream-summary">
          stream: {head.summary}
        </div>
        <div className="truncate text-[12px] text-slate-600 dark:text-slate-300" data-testid="stream-detail">
          {head.detail}
        </div>
      </Frame>
    );
  }
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="font-semibold">{data.title}</span>
        <span className="truncate font-mono text-[11px] text-slate-600 dark:text-slate-400">{data.subtitle}</span>
        {data.cycle && <span className="ml-auto text-[11px] text-fuchsia-600">cycle</span>}
      </div>
      <div className="truncate text-[12px]">{data.detail}</div>
      {data.badges && <RecordPills badges={data.badges} timing={data.timing} place={data.place} />}
    </Frame>
  );
});

export const StreamNode = memo(function StreamNode({ data }: NodeProps<FlowNode>) {
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="font-semibold">{data.title}</span>
        <FoldToggle target={data.id} unfolded={data.expanded} onToggle={data.onToggle} />
      </div>
      <div className="text-[12px]" data-testid="stream-summary">
        {data.subtitle}
      </div>
      <div className="truncate text-[12px] text-slate-600 dark:text-slate-300">{data.detail}</div>
    </Frame>
  );
});

export const GhostNode = memo(function GhostNode({ data }: NodeProps<FlowNode>) {
  return (
    <Frame data={data}>
      <div className="font-semibold">{data.title}</div>
      <div className="truncate font-mono text-[11px]">{data.subtitle}</div>
      <div className="truncate text-[12px]">{data.detail}</div>
    </Frame>
  );
});

export const EnvelopeNode = memo(function EnvelopeNode({ data }: NodeProps<FlowNode>) {
  const d = data.dna!;
  const w = envelopeWords({ hashOk: d.hashOk, signature: d.signature, didMatch: d.didMatch, trusted: false });
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="truncate font-semibold">{data.title}</span>
        {d.duplicate && <span className="ml-auto text-[11px] text-red-600">duplicate hash</span>}
      </div>
      <div className="truncate text-[11px]" title={d.from}>
        from <Identity value={d.from} shorten={() => data.subtitle} /> · {d.epoch}
      </div>
      <div className="mt-0.5 flex gap-1">
        <Pill tone={w.hash.tone} title={w.hash.title}>
          {d.hashOk ? 'hash ok' : 'hash BAD'}
        </Pill>
        {/* Not green: a valid signature says nothing of who signed; trust is the workflow record's (its badge). */}
        <Pill
          tone={w.signature.tone}
          title={d.signature === 'valid' ? "the signature holds; whether its signer is trusted is on the workflow's record" : w.signature.title}
        >
          {d.signature === 'valid' ? 'sig valid' : `sig ${d.signature.replace('_', ' ')}`}
        </Pill>
        {w.binding && (
          <Pill tone={w.binding.tone} title={w.binding.title}>
            DID bound
          </Pill>
        )}
      </div>
    </Frame>
  );
});

export const nodeTypes = { record: RecordNode, stream: StreamNode, ghost: GhostNode, fold: StreamNode, envelope: EnvelopeNode };
