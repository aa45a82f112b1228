/** Injected by rspack.base.ts (DefinePlugin). */
declare const __APP_NAME__: string;
/** Build label shown in remote hubs (BUILD_ID at build time, else the package version). */
declare const __BUILD_ID__: string;
/** The shared packages' versions and policy (federation-shared.ts, hostSharedConfig). */
declare const __SHARED_CONFIG__: Record<
  string,
  { version: string; shareConfig: { singleton: true; strictVersion: true; requiredVersion: string } }
>;

declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
