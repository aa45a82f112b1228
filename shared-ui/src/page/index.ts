export { Page, type PageProps } from './page.tsx';
