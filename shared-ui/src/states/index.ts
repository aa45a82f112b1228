export { EmptyState, ErrorState, LoadingState } from './states.tsx';
export { Spinner } from '../internal/spinner.tsx';
