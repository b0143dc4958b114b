import { memo, type RefObject } from 'react';

/**
 * A hidden file chooser that a visible button clicks (the toolbar's Open files, the samples note's):
 * the files chosen go to `onFiles`, and it is emptied so the same files can be chosen again. Drawn
 * again only when its props change: React writes an input's attributes anew each time it is drawn,
 * and the toolbar is drawn for every status line of a load.
 */
export const FileChooser = memo(function FileChooser({
  ref,
  label,
  onFiles,
}: {
  ref: RefObject<HTMLInputElement | null>;
  label: string;
  onFiles: (files: FileList) => void;
}) {
  return (
    <input
      ref={ref}
      type="file"
      multiple
      aria-label={label}
      className="hidden"
      onChange={(e) => {
        if (e.target.files?.length) onFiles(e.target.files);
        e.target.value = '';
      }}
    />
  );
});
