import { Selector } from 'antd-mobile';
import { Fragment } from 'react';
import * as styles from './chip-select.module.css';

interface ChipSelectProps {
  options: { label: string; value: string }[];
  value: string;
  onChange: (value: string) => void;
  testId: string;
  columns?: number;
}

/**
 * A label that wraps only between words: "Ethereum (ERC-20)" in a half-width
 * chip breaks before "(ERC-20)", never after its hyphen.
 */
function WordWrapLabel({ text }: { text: string }) {
  const words = text.split(' ').slice(0, 20);
  // One inline box: the chip is a flex container, whose loose spaces and words would not wrap as text.
  return (
    <span>
      {words.map((word, index) => (
        // The words of one fixed label, never reordered: the index is a stable key.
        <Fragment key={index}>
          {index > 0 && ' '}
          <span style={{ whiteSpace: 'nowrap' }}>{word}</span>
        </Fragment>
      ))}
    </span>
  );
}

/** A single choice among a few chips (coins, networks). */
export function ChipSelect({ options, value, onChange, testId, columns }: ChipSelectProps) {
  return (
    <div className={styles.chips} data-testid={testId}>
      <Selector
        columns={columns}
        options={options.map((option) => ({ value: option.value, label: <WordWrapLabel text={option.label} /> }))}
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
