// Custom React Flow nodes: memoised, defined at module scope (nodeTypes must not change identity).
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { GraphRenderNode } from '../../wire/graph';

// A mapped copy: React Flow wants node data as a plain record type, which an interface is not.
export type FlowNodeData = { [K in keyof GraphRenderNode]: GraphRenderNode[K] } & { selected: boolean; onToggle: (id: string) => void; expanded: boolean };
export type FlowNode = Node<FlowNodeData>;

const SIG_LABEL: Record<string, string> = { unsigned: 'unsigned', valid: 'sig ok', invalid: 'sig BAD', unknown_key: 'unknown key', unsupported: 'unsupported', malformed: 'sig malformed' };

function Pill({ ok, children }: { ok: boolean | null; children: React.ReactNode }) {
  const cls = ok === null ? 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200' : ok ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100' : 'bg-red-200 text-red-900 dark:bg-red-900 dark:text-red-100';
  return <span className={`rounded px-1 text-[10px] leading-4 ${cls}`}>{children}</span>;
}

function Frame({ data, children }: { data: FlowNodeData; children: React.ReactNode }) {
  const tone = data.kind === 'ghost' ? 'border-dashed border-slate-400 bg-slate-50 text-slate-600 dark:text-slate-400 dark:bg-slate-900' : data.alarm ? 'border-red-500 bg-red-50 dark:bg-red-950/60' : 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900';
  return (
    <div
      data-node-kind={data.kind}
      data-alarm={data.alarm || undefined}
      data-selected={data.selected || undefined}
      title={`${data.title} ${data.subtitle}\n${data.detail}${data.cycle ? '\nin a cycle' : ''}`}
      className={`h-full w-full overflow-hidden rounded-md border-2 px-2 py-1 text-left text-xs shadow-sm ${tone} ${data.selected ? 'ring-4 ring-amber-400' : ''} ${data.cycle ? 'outline outline-2 outline-offset-2 outline-fuchsia-500' : ''}`}
    >
      <Handle type="target" position={Position.Right} className="!h-1.5 !w-1.5 !bg-slate-400" />
      {children}
      <Handle type="source" position={Position.Left} className="!h-1.5 !w-1.5 !bg-slate-400" />
    </div>
  );
}

export const RecordNode = memo(function RecordNode({ data }: NodeProps<FlowNode>) {
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="font-semibold">{data.title}</span>
        <span className="truncate font-mono text-[10px] text-slate-600 dark:text-slate-400">{data.subtitle}</span>
        {data.cycle && <span className="ml-auto text-[10px] text-fuchsia-600">cycle</span>}
      </div>
      <div className="truncate text-[11px]">{data.detail}</div>
      {data.badges && (
        <div className="mt-0.5 flex gap-1">
          <Pill ok={data.badges.decoded}>{data.badges.decoded ? 'decoded' : 'undecoded'}</Pill>
          <Pill ok={data.badges.valid}>{data.badges.valid ? 'valid' : 'invalid'}</Pill>
          <Pill ok={data.badges.signature === 'unsigned' ? null : data.badges.signature === 'valid' && data.badges.trusted}>{SIG_LABEL[data.badges.signature] ?? data.badges.signature}</Pill>
        </div>
      )}
    </Frame>
  );
});

export const StreamNode = memo(function StreamNode({ data }: NodeProps<FlowNode>) {
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="font-semibold">{data.title}</span>
        <button
          type="button"
          className="nodrag ml-auto rounded border border-slate-300 px-1 text-[10px] hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          onClick={(e) => {
            e.stopPropagation();
            data.onToggle(data.id);
          }}
        >
          {data.expanded ? 'fold' : 'unfold'}
        </button>
      </div>
      <div className="text-[11px]" data-testid="stream-summary">
        {data.subtitle}
      </div>
      <div className="truncate text-[11px] text-slate-600 dark:text-slate-300">{data.detail}</div>
    </Frame>
  );
});

export const GhostNode = memo(function GhostNode({ data }: NodeProps<FlowNode>) {
  return (
    <Frame data={data}>
      <div className="font-semibold">{data.title}</div>
      <div className="truncate font-mono text-[10px]">{data.subtitle}</div>
      <div className="truncate text-[11px]">{data.detail}</div>
    </Frame>
  );
});

export const EnvelopeNode = memo(function EnvelopeNode({ data }: NodeProps<FlowNode>) {
  const d = data.dna!;
  return (
    <Frame data={data}>
      <div className="flex items-baseline gap-1">
        <span className="truncate font-semibold">{data.title}</span>
        {d.duplicate && <span className="ml-auto text-[10px] text-red-600">duplicate hash</span>}
      </div>
      <div className="truncate text-[10px]" title={d.from}>
        from {data.subtitle} · {d.epoch}
      </div>
      <div className="mt-0.5 flex gap-1">
        <Pill ok={d.hashOk}>{d.hashOk ? 'hash ok' : 'hash BAD'}</Pill>
        <Pill ok={d.signature === 'valid'}>{d.signature === 'valid' ? 'sig ok' : `sig ${d.signature}`}</Pill>
        <Pill ok={d.didMatch}>{d.didMatch ? 'DID bound' : 'DID ≠'}</Pill>
      </div>
    </Frame>
  );
});

export const nodeTypes = { record: RecordNode, stream: StreamNode, ghost: GhostNode, fold: StreamNode, envelope: EnvelopeNode };
