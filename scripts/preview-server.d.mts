// Types of preview-server.mjs, for the bench (TypeScript).
export function startPreview(options: { port: number; bypassLock?: boolean; tries?: number }): Promise<{ base: string; stop: () => void }>;
