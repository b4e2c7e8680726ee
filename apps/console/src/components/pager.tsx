/** Previous and next page buttons of a list walked with the API's cursors. */
export function Pager({
  label,
  pageNumber,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav className="pager" aria-label={`Pages of ${label}`}>
      <button type="button" onClick={onPrevious} disabled={!hasPrevious}>
        Previous page
      </button>
      <span>Page {pageNumber}</span>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Next page
      </button>
    </nav>
  );
}
