/**
 * The router facade: remotes use the host's single router instance through
 * this module only (lint forbids importing react-router from a remote), so
 * the host can tree-shake react-router to what the apps actually use.
 */

export type { NavigateFunction } from 'react-router';
export {
  Link,
  Navigate,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
