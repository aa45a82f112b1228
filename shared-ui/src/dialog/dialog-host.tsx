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

/** Alert: one button; confirmHtml: confirm first; confirm and input: cancel, then confirm. */
function buttonsFor(
  dialog: OpenDialog,
  texts: { confirm: string; cancel: string },
  onConfirm: () => void,
  onCancel: () => void,
): ButtonSpec[] {
  const { options, kind } = dialog;
  const confirmSpec = { testId: 'dialog-confirm', primary: true, onClick: onConfirm } as const;
  const cancelSpec = { testId: 'dialog-cancel', primary: false, onClick: onCancel } as const;
  if (kind === 'alert') return [{ ...confirmSpec, text: options.rightText ?? options.leftText ?? texts.confirm }];
  if (kind === 'confirmHtml')
    return [
      { ...confirmSpec, text: options.leftText ?? texts.confirm },
      { ...cancelSpec, text: options.rightText ?? texts.cancel },
    ];
  return [
    { ...cancelSpec, text: options.leftText ?? texts.cancel },
    { ...confirmSpec, text: options.rightText ?? texts.confirm },
  ];
}

/** Escape closes the topmost dialog only. */
function useEscapeCloses(id: number) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && dialogStore.getState().dialogs.at(-1)?.id === id) cancelDialog(id, 'escape');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);
}

interface InputFormProps {
  dialog: OpenDialog;
  titleId: string;
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
  onSubmit: () => void;
}

/** An input dialog's field (text or password), its error (the dialog stays open) and tips. */
function InputForm({ dialog, titleId, value, problem, onChange, onSubmit }: InputFormProps) {
  const { t } = useUiTranslation();
  const { options, id } = dialog;
  const inputProps = {
    value,
    placeholder: options.placeholder ?? t('common.pleaseEnter'),
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
    'aria-invalid': problem !== null,
    'aria-describedby': problem !== null ? `cw-dialog-error-${id}` : undefined,
    'data-testid': 'dialog-input',
    autoFocus: true,
    'aria-labelledby': options.title ? titleId : undefined,
  };
  return (
    <form
      className="cw-dialog__form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
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
  );
}

/** An alert's close button, and the title (centred except on a plain confirm, unless asked). */
function DialogHeader({ dialog, titleId }: { dialog: OpenDialog; titleId: string }) {
  const { t } = useUiTranslation();
  const { options, kind, id } = dialog;
  const titleCentred = options.titleCenter || kind !== 'confirm';
  return (
    <>
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
        <div id={titleId} className={`cw-dialog__title${titleCentred ? ' cw-dialog__title--center' : ''}`}>
          {options.title}
        </div>
      )}
    </>
  );
}

function DialogPanel({ dialog }: { dialog: OpenDialog }) {
  const { t } = useUiTranslation();
  const { options, kind, id } = dialog;
  const [value, setValue] = useState(options.value ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  useEscapeCloses(id);
  const confirm = () => {
    const refused = kind === 'input' ? (options.validate?.(value) ?? null) : null;
    if (refused !== null) {
      setProblem(refused);
      return;
    }
    confirmDialog(id, kind === 'input' ? value : undefined);
  };
  const texts = {
    confirm: options.confirmButtonText ?? t('common.confirm'),
    cancel: options.cancelButtonText ?? t('common.cancel'),
  };
  const buttons = buttonsFor(dialog, texts, confirm, () => cancelDialog(id, 'cancel'));
  const onBackdrop = (event: MouseEvent<HTMLDivElement>) => {
    // Only a tap on the backdrop itself closes; taps inside the panel do not.
    if (event.target === event.currentTarget) cancelDialog(id, 'backdrop');
  };
  const titleId = `cw-dialog-title-${id}`;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: Escape closes (see useEscapeCloses); the backdrop click mirrors it
    <div className="cw-dialog-backdrop" data-testid="dialog-backdrop" onClick={onBackdrop}>
      <div
        className={`cw-dialog cw-dialog--${kind}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={options.title ? titleId : undefined}
        data-testid="dialog"
      >
        <DialogHeader dialog={dialog} titleId={titleId} />
        <DialogBody dialog={dialog} />
        {kind === 'input' && (
          <InputForm
            dialog={dialog}
            titleId={titleId}
            value={value}
            problem={problem}
            onChange={(next) => {
              setValue(next);
              setProblem(null);
            }}
            onSubmit={confirm}
          />
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
