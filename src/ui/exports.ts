// The files the page exports, each made in the worker and saved by the browser: the report (report@1
// JSON, the CLI's document) and its Markdown summary, and a bundle file of the view (it reopens the
// view when dropped). The toolbar's Export menu and the Share dialog both call these.
import type { ShareRecords, ViewToShare } from '../wire/protocol';
import { download } from './download';
import { inspectorClient } from './worker-client';

export async function exportReport(as: 'json' | 'markdown'): Promise<void> {
  const r = await inspectorClient().call('report', {});
  if (as === 'json') download('envelope-inspector-report.json', r.json, 'application/json');
  else download('envelope-inspector-report.md', r.markdown, 'text/markdown');
}

/** A bundle of `records` of what is loaded and the view; the problems that kept it from being made, if any. */
export async function exportBundle(
  view: ViewToShare,
  options: { redact?: boolean; unblankable?: 'leave-out' | 'include'; records?: ShareRecords } = {},
): Promise<string[]> {
  const r = await inspectorClient().call('share', {
    view,
    redact: options.redact ?? false,
    bundle: true,
    unblankable: options.unblankable,
    records: options.records,
  });
  if (r.bundle) download('envelope-inspector.eibundle', r.bundle as Uint8Array<ArrayBuffer>, 'application/octet-stream');
  return r.problems;
}
