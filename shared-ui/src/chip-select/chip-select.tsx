import { Selector } from 'antd-mobile';
import { Fragment, type ReactNode } from 'react';
import './chip-select.css';

/** Words kept in one label at most: labels are short coin and network names. */
const LABEL_WORDS_MAX = 20;

export interface ChipSelectProps {
  /** `icon`: shown before the label (a coin or network icon). */
  options: { label: string; value: string; icon?: ReactNode }[];
  value: string;
  onChange: (value: string) => void;
  /** The group's test id; each chip's label carries `${testId}-${value}`. */
  testId: string;
  columns?: number;
}

/**
 * A label that wraps only between words: "Ethereum (ERC-20)" in a half-width
 * chip breaks before "(ERC-20)", never after its hyphen.
 */
function WordWrapLabel({ text }: { text: string }) {
  const words = text.split(' ').slice(0, LABEL_WORDS_MAX);
  // One inline box: the chip is a flex container, whose loose spaces and words would not wrap as text.
  return (
    <>
      {words.map((word, index) => (
        // The words of one fixed label, never reordered: the index is a stable key.
        <Fragment key={index}>
          {index > 0 && ' '}
          <span style={{ whiteSpace: 'nowrap' }}>{word}</span>
        </Fragment>
      ))}
    </>
  );
}

/** A single choice among a few chips (coins, networks, rate type). */
export function ChipSelect({ options, value, onChange, testId, columns }: ChipSelectProps) {
  return (
    <div className="cw-chip-select" data-testid={testId} data-value={value}>
      <Selector
        columns={columns}
        options={options.map((option) => ({
          value: option.value,
          label: (
            <span data-testid={`${testId}-${option.value}`} className={option.icon ? 'cw-chip-select__with-icon' : ''}>
              {option.icon}
              {option.icon ? (
                <span>
                  <WordWrapLabel text={option.label} />
                </span>
              ) : (
                <WordWrapLabel text={option.label} />
              )}
            </span>
          ),
        }))}
        value={[value]}
        showCheckMark={false}
        onChange={(values) => {
          const next = values[0];
          if (next !== undefined) onChange(next);
        }}
      />
    </div>
  );
}
