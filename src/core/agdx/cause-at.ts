// An envelope's cause_at: the log position (Iggy binding) of its causal parent, as 20 bytes.

/** A cause_at (Iggy binding): stream u32, topic u32, partition u32, offset u64, all big-endian. */
export interface CauseAt {
  stream: number;
  topic: number;
  partition: number;
  offset: bigint;
}

export function readCauseAt(bytes: Uint8Array): CauseAt | null {
  if (bytes.length !== 20) return null;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 20);
  return { stream: dv.getUint32(0), topic: dv.getUint32(4), partition: dv.getUint32(8), offset: dv.getBigUint64(12) };
}

/** The display of a log position, as the field tree shows cause_at. */
export const describeCauseAt = (p: CauseAt) => `stream ${p.stream}, topic ${p.topic}, partition ${p.partition}, offset ${p.offset}`;
