export { Spinner } from '../internal/spinner.tsx';
export { EmptyState, ErrorState, LoadingState } from './states.tsx';
