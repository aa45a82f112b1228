export { PullList, type PullListProps } from './pull-list.tsx';
