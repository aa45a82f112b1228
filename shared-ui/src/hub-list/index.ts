export { HubList, type HubListEntry, type HubListProps } from './hub-list.tsx';
