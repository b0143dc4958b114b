// The one tab registry: each view of the right-hand pane, by id, with its label and the panel it
// draws above the record detail. The tab bar, the panels, history entries (back and forward) and
// shared links all read it: a new panel is one entry here.
import { lazy, type ReactNode } from 'react';
import type { SharedView } from '../wire/protocol';
import { FoldsPanel } from './components/FoldsPanel';
import { SessionsPanel } from './components/SessionsPanel';

type Viewport = NonNullable<SharedView['viewport']>;

/** What every panel is drawn with. */
export interface TabPanelProps {
  /** Moves when a load ends: what a panel asks the worker for is per load. */
  version: number;
  selected: number | null;
  onSelect: (key: number) => void;
  /** Selects a record and opens its detail on the Record tab (a full tab shows no detail of its own). */
  onOpen: (key: number) => void;
  /** The graph's viewport, as a link set it or the person left it. */
  viewport: Viewport | null;
  onViewport: (viewport: Viewport) => void;
  /** The conversation the record list is filtered to (null: none), and how a panel sets it. */
  conversation: string | null;
  onConversation: (id: string | null) => void;
}

/** What the loaded records need of the tab bar: the AGDX dialects they are in. */
export interface LoadedKinds {
  dialects: ReadonlySet<string>;
}

export interface TabSpec {
  /** In history entries and links. */
  id: string;
  /** On the tab, and the name of its panel for assistive technology. */
  label: string;
  /** Its panel's code loads when the tab first opens (kept out of the initial bundle); drawn in Suspense. */
  lazy: boolean;
  /** The panel above the record detail; null: the tab shows the detail alone. */
  panel: ((props: TabPanelProps) => ReactNode) | null;
  /** Whether the tab bar shows it for these records (absent: always). An open tab is always shown. */
  shown?: (loaded: LoadedKinds) => boolean;
  /** The panel takes the whole pane, with no record detail below it (the comparison shows two records of its own). */
  full?: boolean;
}

// The run registry (metadata `run`) is the 0.0.1 dialect's; laser-sdk 0.7 retired it for sessions.
// A load with no AGDX record keeps the Runs tab, as before there were dialects.
const hasRuns = (l: LoadedKinds) => l.dialects.has('0.0.1') || !l.dialects.has('0.7');
const hasSessions = (l: LoadedKinds) => l.dialects.has('0.7');

// React Flow and the graph view load only when the graph tab opens (a small initial bundle); the
// timeline's canvas view likewise.
const GraphView = lazy(() => import('./graph/GraphView'));
const TimelineView = lazy(() => import('./timeline/TimelineView'));
// The comparison's region loads when the Compare tab first opens.
const ComparePanel = lazy(() => import('./compare/ComparePanel'));

export const TABS = [
  { id: 'records', label: 'Record', lazy: false, panel: null },
  {
    id: 'graph',
    label: 'Graph',
    lazy: true,
    panel: (p) => <GraphView version={p.version} selected={p.selected} onSelect={p.onSelect} viewport={p.viewport} onViewport={p.onViewport} />,
  },
  { id: 'timeline', label: 'Timeline', lazy: true, panel: (p) => <TimelineView version={p.version} selected={p.selected} onSelect={p.onSelect} /> },
  { id: 'agents', label: 'Agents', lazy: false, panel: (p) => <FoldsPanel mode="agents" version={p.version} selected={p.selected} onSelect={p.onSelect} /> },
  {
    id: 'runs',
    label: 'Runs',
    lazy: false,
    shown: hasRuns,
    panel: (p) => <FoldsPanel mode="runs" version={p.version} selected={p.selected} onSelect={p.onSelect} />,
  },
  {
    id: 'sessions',
    label: 'Sessions',
    lazy: false,
    shown: hasSessions,
    panel: (p) => (
      <SessionsPanel version={p.version} selected={p.selected} onSelect={p.onSelect} conversation={p.conversation} onConversation={p.onConversation} />
    ),
  },
  { id: 'compare', label: 'Compare', lazy: true, full: true, panel: (p) => <ComparePanel version={p.version} onSelect={p.onOpen} /> },
] as const satisfies readonly TabSpec[];

export type TabId = (typeof TABS)[number]['id'];

/** The tab a page opens on, and the one a link or history entry falls back to. */
export const DEFAULT_TAB: TabId = TABS[0].id;

/** The tab `name` names, if it is one of ours (a link or a history entry may hold anything). */
export function tabOf(name: unknown): TabId | null {
  return TABS.find((t) => t.id === name)?.id ?? null;
}

export function tabSpec(id: TabId): TabSpec {
  return TABS.find((t) => t.id === id)!;
}

/** The tabs the bar shows for these records: each one they need, and the open one whatever they are. */
export function shownTabs(loaded: LoadedKinds, open: TabId): readonly TabSpec[] {
  return TABS.filter((t: TabSpec) => t.id === open || !t.shown || t.shown(loaded));
}
