/** Injected by rspack.base.ts (DefinePlugin). */
declare const __APP_NAME__: string;
/** Build label shown in remote hubs (BUILD_ID at build time, else the package version). */
declare const __BUILD_ID__: string;
declare const __SHARED_VERSIONS__: Record<string, string>;

declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
