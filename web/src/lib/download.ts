/** Hands a CSV file made of `parts` to the browser as a download named `fileName`. */
export function downloadCsv(parts: string[], fileName: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the object is freed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
