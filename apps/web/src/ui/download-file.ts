/** Saves a blob as a download named `fileName` (every export and CSV of the app goes through here). */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the object URL is let go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
