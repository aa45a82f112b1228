import * as SharedApi from '@cw/shared-state/api';
import * as SharedContracts from '@cw/shared-state/contracts';
import * as SharedErrors from '@cw/shared-state/errors';
import * as SharedI18n from '@cw/shared-state/i18n';
import * as SharedPreload from '@cw/shared-state/preload';
import * as SharedRouter from '@cw/shared-state/router';
import * as SharedSession from '@cw/shared-state/session';
import * as SharedSettings from '@cw/shared-state/settings';
import * as UiDialog from '@cw/shared-ui/dialog';
import * as UiToast from '@cw/shared-ui/toast';
import type { UserOptions } from '@module-federation/runtime/types';
import * as ReactQuery from '@tanstack/react-query';
import * as I18n from 'i18next';
import * as React from 'react';
import * as JsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as Zustand from 'zustand';

type SharedTable = NonNullable<UserOptions['shared']>;

/**
 * What the host provides to remotes through the federation share scope.
 * Every stateful singleton (React, i18n, the stores in shared-state and the
 * services in shared-ui) is provided as the host's own loaded instance, so a
 * remote never starts a second copy. This module loads with the federation
 * runtime, only when a remote is first visited. Keep it in step with the
 * `exports` of shared-ui and shared-state (shared-modules.test.ts checks it).
 *
 * Not provided: react-i18next and zustand/middleware. Remotes reach them only through
 * @cw/shared-state (useTranslation, the persisted stores), which is the host's instance; providing
 * their whole namespace here would keep every export (Trans and its HTML parser, devtools, immer) in
 * the landing bundle, where the host itself uses one or two of them.
 */
const config = __SHARED_CONFIG__;

/** The version and policy (singleton, strictVersion, requiredVersion) of a package: federation-shared.ts. */
function sharedAs(pkg: string) {
  const entry = config[pkg];
  if (!entry) throw new Error(`no locked version for shared package ${pkg}`);
  return { version: entry.version, shareConfig: { ...entry.shareConfig } };
}

function loaded(pkg: string, module: object) {
  return { ...sharedAs(pkg), lib: () => module, loaded: true };
}

/** Stateless building blocks: provided on demand, so the host downloads only what a remote asks for. */
function onDemand(load: () => Promise<object>, pkg = '@cw/shared-ui') {
  return { ...sharedAs(pkg), get: () => load().then((module) => () => module) };
}

export function sharedModules(): SharedTable {
  return {
    react: loaded('react', React),
    'react/jsx-runtime': loaded('react', JsxRuntime),
    'react-dom': loaded('react-dom', ReactDOM),
    'react-dom/client': loaded('react-dom', ReactDOMClient),
    i18next: loaded('i18next', I18n),
    zustand: loaded('zustand', Zustand),
    '@tanstack/react-query': loaded('@tanstack/react-query', ReactQuery),
    '@cw/shared-state/i18n': loaded('@cw/shared-state', SharedI18n),
    '@cw/shared-state/session': loaded('@cw/shared-state', SharedSession),
    '@cw/shared-state/router': loaded('@cw/shared-state', SharedRouter),
    '@cw/shared-state/contracts': loaded('@cw/shared-state', SharedContracts),
    '@cw/shared-state/preload': loaded('@cw/shared-state', SharedPreload),
    '@cw/shared-state/api': loaded('@cw/shared-state', SharedApi),
    '@cw/shared-state/errors': loaded('@cw/shared-state', SharedErrors),
    '@cw/shared-state/settings': loaded('@cw/shared-state', SharedSettings),
    // Stateless (pure validation) and it pulls in viem's hashing: loaded only when a remote asks.
    '@cw/shared-state/address': onDemand(() => import('@cw/shared-state/address'), '@cw/shared-state'),
    // Stateless helpers over the shared query client; loaded when a remote shows fiat values.
    '@cw/shared-state/prices': onDemand(() => import('@cw/shared-state/prices'), '@cw/shared-state'),
    // Stateless amount formatting and parsing; loaded when a remote shows an amount.
    '@cw/shared-state/money': onDemand(() => import('@cw/shared-state/money'), '@cw/shared-state'),
    // Stateless catalogue labels (network names, token standards); loaded when a remote lists networks.
    '@cw/shared-state/catalogue': onDemand(() => import('@cw/shared-state/catalogue'), '@cw/shared-state'),
    // Stateless password rules shared with the server; loaded when a remote checks a password.
    '@cw/shared-state/passwords': onDemand(() => import('@cw/shared-state/passwords'), '@cw/shared-state'),
    // The one web3 kit (wagmi loads inside it on first use): one instance, so a wallet connected in
    // the rewards remote is connected in the wallet remote. Loaded only when a remote asks.
    '@cw/shared-state/web3': onDemand(() => import('@cw/shared-state/web3'), '@cw/shared-state'),
    // Stateless lottery verification (WebCrypto); loaded when the likes screen verifies a draw.
    '@cw/shared-state/lottery': onDemand(() => import('@cw/shared-state/lottery'), '@cw/shared-state'),
    // Stateless payout rules shared with the server; loaded when a remote checks payout details.
    '@cw/shared-state/payouts': onDemand(() => import('@cw/shared-state/payouts'), '@cw/shared-state'),
    '@cw/shared-state/por': onDemand(() => import('@cw/shared-state/por'), '@cw/shared-state'),
    // Stateless passkey ceremonies (@simplewebauthn/browser); loaded when a screen asks for a passkey.
    '@cw/shared-state/passkeys': onDemand(() => import('@cw/shared-state/passkeys'), '@cw/shared-state'),
    // Stateless phone/desktop and language lists; loaded when a remote asks.
    '@cw/shared-state/device': onDemand(() => import('@cw/shared-state/device'), '@cw/shared-state'),
    '@cw/shared-state/languages': onDemand(() => import('@cw/shared-state/languages'), '@cw/shared-state'),
    // The locks on outflows over the shared query client; loaded with the lock banner.
    '@cw/shared-state/security': onDemand(() => import('@cw/shared-state/security'), '@cw/shared-state'),
    // Stateful services: always the host's instances.
    '@cw/shared-ui/toast': loaded('@cw/shared-ui', UiToast),
    '@cw/shared-ui/dialog': loaded('@cw/shared-ui', UiDialog),
    '@cw/shared-ui/clipboard': onDemand(() => import('@cw/shared-ui/clipboard')),
    '@cw/shared-ui/amount': onDemand(() => import('@cw/shared-ui/amount')),
    '@cw/shared-ui/date-field': onDemand(() => import('@cw/shared-ui/date-field')),
    '@cw/shared-ui/coin-icon': onDemand(() => import('@cw/shared-ui/coin-icon')),
    '@cw/shared-ui/number-input': onDemand(() => import('@cw/shared-ui/number-input')),
    '@cw/shared-ui/password-field': onDemand(() => import('@cw/shared-ui/password-field')),
    '@cw/shared-ui/countdown-button': onDemand(() => import('@cw/shared-ui/countdown-button')),
    '@cw/shared-ui/list': onDemand(() => import('@cw/shared-ui/list')),
    '@cw/shared-ui/states': onDemand(() => import('@cw/shared-ui/states')),
    '@cw/shared-ui/image-preview': onDemand(() => import('@cw/shared-ui/image-preview')),
    '@cw/shared-ui/upload-list': onDemand(() => import('@cw/shared-ui/upload-list')),
    '@cw/shared-ui/qr-code': onDemand(() => import('@cw/shared-ui/qr-code')),
    '@cw/shared-ui/qr-scanner': onDemand(() => import('@cw/shared-ui/qr-scanner')),
    '@cw/shared-ui/page': onDemand(() => import('@cw/shared-ui/page')),
    '@cw/shared-ui/chip-select': onDemand(() => import('@cw/shared-ui/chip-select')),
    '@cw/shared-ui/hub-list': onDemand(() => import('@cw/shared-ui/hub-list')),
    '@cw/shared-ui/wallet-connect': onDemand(() => import('@cw/shared-ui/wallet-connect')),
    '@cw/shared-ui/quick-buy': onDemand(() => import('@cw/shared-ui/quick-buy')),
    '@cw/shared-ui/i18n': onDemand(() => import('@cw/shared-ui/i18n')),
    '@cw/shared-ui/lock-banner': onDemand(() => import('@cw/shared-ui/lock-banner')),
  };
}
