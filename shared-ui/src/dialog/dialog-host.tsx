import { CloseOutline } from 'antd-mobile-icons';
import { type MouseEvent, Suspense, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useUiTranslation } from '../i18n/index.ts';
import { PasswordField } from '../password-field/password-field.tsx';
import { cancelDialog, confirmDialog, dialogStore, type OpenDialog } from './dialog-store.ts';
import '../internal/input.css';
import './dialog.css';

interface ButtonSpec {
  text: string;
  testId: 'dialog-confirm' | 'dialog-cancel';
  primary: boolean;
  onClick: () => void;
}

function DialogBody({ dialog }: { dialog: OpenDialog }) {
  const { options, kind, html } = dialog;
  if (!options.text) return null;
  const className = `cw-dialog__body${options.center ? ' cw-dialog__body--center' : ''}`;
  if (html !== undefined) {
    return <div className={className} data-testid="dialog-body" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <div className={className} data-testid="dialog-body">
      {kind === 'input' ? <p className="cw-dialog__text">{options.text}</p> : options.text}
    </div>
  );
}

function DialogPanel({ dialog }: { dialog: OpenDialog }) {
  const { t } = useUiTranslation();
  const { options, kind, id } = dialog;
  const [value, setValue] = useState(options.value ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = () => {
    const refused = kind === 'input' ? (options.validate?.(value) ?? null) : null;
    if (refused !== null) {
      setProblem(refused);
      return;
    }
    confirmDialog(id, kind === 'input' ? value : undefined);
  };
  const cancel = () => cancelDialog(id, 'cancel');

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && dialogStore.getState().dialogs.at(-1)?.id === id) cancelDialog(id, 'escape');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);

  const confirmText = options.confirmButtonText ?? t('common.confirm');
  const cancelText = options.cancelButtonText ?? t('common.cancel');
  const confirmSpec = { testId: 'dialog-confirm', primary: true, onClick: confirm } as const;
  const cancelSpec = { testId: 'dialog-cancel', primary: false, onClick: cancel } as const;
  let buttons: ButtonSpec[];
  if (kind === 'alert') {
    buttons = [{ ...confirmSpec, text: options.rightText ?? options.leftText ?? confirmText }];
  } else if (kind === 'confirmHtml') {
    // Confirm first.
    buttons = [
      { ...confirmSpec, text: options.leftText ?? confirmText },
      { ...cancelSpec, text: options.rightText ?? cancelText },
    ];
  } else {
    buttons = [
      { ...cancelSpec, text: options.leftText ?? cancelText },
      { ...confirmSpec, text: options.rightText ?? confirmText },
    ];
  }

  const onBackdrop = (event: MouseEvent<HTMLDivElement>) => {
    // Only a tap on the backdrop itself closes; taps inside the panel do not.
    if (event.target === event.currentTarget) cancelDialog(id, 'backdrop');
  };
  const titleId = `cw-dialog-title-${id}`;
  const inputProps = {
    value,
    placeholder: options.placeholder ?? t('common.pleaseEnter'),
    onChange: (event: { target: { value: string } }) => {
      setValue(event.target.value);
      setProblem(null);
    },
    'aria-invalid': problem !== null,
    'aria-describedby': problem !== null ? `cw-dialog-error-${id}` : undefined,
    'data-testid': 'dialog-input',
    autoFocus: true,
    'aria-labelledby': options.title ? titleId : undefined,
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: Escape closes (see effect); the backdrop click mirrors it
    <div className="cw-dialog-backdrop" data-testid="dialog-backdrop" onClick={onBackdrop}>
      <div
        className={`cw-dialog cw-dialog--${kind}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={options.title ? titleId : undefined}
        data-testid="dialog"
      >
        {kind === 'alert' && (
          <button
            type="button"
            className="cw-dialog__close"
            data-testid="dialog-close"
            aria-label={t('common.close')}
            onClick={() => cancelDialog(id, 'close')}
          >
            <CloseOutline aria-hidden />
          </button>
        )}
        {options.title && (
          <div
            id={titleId}
            className={`cw-dialog__title${options.titleCenter || kind !== 'confirm' ? ' cw-dialog__title--center' : ''}`}
          >
            {options.title}
          </div>
        )}
        <DialogBody dialog={dialog} />
        {kind === 'input' && (
          <form
            className="cw-dialog__form"
            onSubmit={(event) => {
              event.preventDefault();
              confirm();
            }}
          >
            {options.inputType === 'password' ? (
              <PasswordField {...inputProps} autoComplete="current-password" />
            ) : (
              <input {...inputProps} type="text" className="cw-input" />
            )}
            {problem !== null && (
              <p className="cw-dialog__error" id={`cw-dialog-error-${id}`} role="alert" data-testid="dialog-error">
                {problem}
              </p>
            )}
            {options.tips && <p className="cw-dialog__tips">{options.tips}</p>}
          </form>
        )}
        <div className="cw-dialog__actions">
          {buttons.map((button) => (
            <button
              key={button.testId}
              type="button"
              className={`cw-dialog__button${button.primary ? ' cw-dialog__button--primary' : ''}`}
              data-testid={button.testId}
              onClick={button.onClick}
            >
              {button.text}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}

function Dialogs() {
  const dialogs = useStore(dialogStore, (state) => state.dialogs);
  return (
    <>
      {dialogs.map((dialog) => (
        <DialogPanel key={dialog.id} dialog={dialog} />
      ))}
    </>
  );
}

/** Renders open dialogs. Mount once, at the top of the app. */
export function DialogHost() {
  return (
    <Suspense fallback={null}>
      <Dialogs />
    </Suspense>
  );
}
