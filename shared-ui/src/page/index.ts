export { Page, type PageProps } from './page.tsx';
export { PageLink } from './page-link.tsx';
