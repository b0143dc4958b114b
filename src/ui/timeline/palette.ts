// The timeline's colours, light and dark.
export interface Palette {
  text: string;
  muted: string;
  grid: string;
  laneAlt: string;
  span: string;
  link: string;
  stream: string;
  missed: string;
  met: string;
  pending: string;
  skew: string;
  selection: string;
  /** By verdict, in MARK_VERDICTS order. */
  verdicts: readonly string[];
  /** A session's band: a tint behind its lane's marks and a strip below them, working, paused or any other state. */
  working: { tint: string; strip: string };
  paused: { tint: string; strip: string };
  waiting: { tint: string; strip: string };
}

// The badge tones (components/Badges.tsx): red for invalid and bad signatures, amber for an unknown
// key, orange for not trusted, emerald for trusted, slate for unsigned.
export const LIGHT: Palette = {
  text: '#334155',
  muted: '#475569',
  grid: '#e2e8f0',
  laneAlt: 'rgba(241, 245, 249, 0.8)',
  span: '#64748b',
  link: 'rgba(100, 116, 139, 0.45)',
  stream: 'rgba(13, 148, 136, 0.55)',
  missed: '#dc2626',
  met: '#059669',
  pending: '#94a3b8',
  skew: '#7c3aed',
  selection: '#0d9488',
  verdicts: ['#b91c1c', '#dc2626', '#d97706', '#ea580c', '#059669', '#64748b'],
  working: { tint: 'rgba(13, 148, 136, 0.08)', strip: '#0d9488' },
  paused: { tint: 'rgba(217, 119, 6, 0.16)', strip: '#b45309' },
  waiting: { tint: 'rgba(100, 116, 139, 0.1)', strip: '#64748b' },
};

export const DARK: Palette = {
  text: '#e2e8f0',
  muted: '#cbd5e1',
  grid: '#1e293b',
  laneAlt: 'rgba(30, 41, 59, 0.55)',
  span: '#94a3b8',
  link: 'rgba(148, 163, 184, 0.4)',
  stream: 'rgba(45, 212, 191, 0.5)',
  missed: '#f87171',
  met: '#34d399',
  pending: '#64748b',
  skew: '#a78bfa',
  selection: '#2dd4bf',
  verdicts: ['#f87171', '#f87171', '#fbbf24', '#fb923c', '#34d399', '#94a3b8'],
  working: { tint: 'rgba(45, 212, 191, 0.08)', strip: '#2dd4bf' },
  paused: { tint: 'rgba(251, 191, 36, 0.16)', strip: '#fbbf24' },
  waiting: { tint: 'rgba(148, 163, 184, 0.1)', strip: '#94a3b8' },
};
