import { Selector } from 'antd-mobile';

interface ChipSelectProps {
  options: { label: string; value: string }[];
  value: string;
  onChange: (value: string) => void;
  testId: string;
  columns?: number;
}

/** A single choice among a few chips (coins, networks). */
export function ChipSelect({ options, value, onChange, testId, columns }: ChipSelectProps) {
  return (
    <div data-testid={testId}>
      <Selector
        columns={columns}
        options={options}
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
