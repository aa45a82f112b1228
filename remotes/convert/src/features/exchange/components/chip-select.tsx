import { Selector } from 'antd-mobile';

interface ChipSelectProps {
  options: { label: string; value: string }[];
  value: string;
  onChange: (value: string) => void;
  testId: string;
  columns?: number;
}

/** A single choice among a few chips (coins, networks, rate type); options carry data-testids per value. */
export function ChipSelect({ options, value, onChange, testId, columns }: ChipSelectProps) {
  return (
    <div data-testid={testId} data-value={value}>
      <Selector
        columns={columns}
        options={options.map((o) => ({
          label: <span data-testid={`${testId}-${o.value}`}>{o.label}</span>,
          value: o.value,
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
