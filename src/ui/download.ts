// Saves data as a file the person downloads (nothing leaves the browser otherwise).
export function download(name: string, data: BlobPart | Blob, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // Revoked a little later: some browsers start the download after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
