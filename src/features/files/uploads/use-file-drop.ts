import { useRef, useState, type DragEvent } from 'react';
import { collectDropped, type PickedFiles } from '../../../lib/folder-walk';

const carriesFiles = (e: DragEvent): boolean => Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag-and-drop of files and whole folders onto an element: `dragging` drives the overlay, `onDrop`
 * receives the dropped files and the walked folders. Spread `handlers` on the drop target.
 */
export function useFileDrop(onDrop: (picked: PickedFiles) => void, onError: (error: unknown) => void) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them to know when the pointer really left.
  const depth = useRef(0);

  const handlers = {
    onDragEnter(e: DragEvent) {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setDragging(true);
    },
    onDragOver(e: DragEvent) {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(e: DragEvent) {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop(e: DragEvent) {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      // Synchronously, inside the event: the DataTransfer is emptied once the handler returns.
      collectDropped(e.dataTransfer).then(onDrop, onError);
    },
  };
  return { dragging, handlers };
}
