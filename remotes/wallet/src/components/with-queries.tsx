import { queryClient } from '@cw/shared-state/api';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/** A route screen inside the one shared react-query cache (the host provides none around remote routes). */
export function withQueries(Screen: ComponentType): ComponentType {
  function WithQueries() {
    return (
      <QueryClientProvider client={queryClient}>
        <Screen />
      </QueryClientProvider>
    );
  }
  WithQueries.displayName = `WithQueries(${Screen.displayName ?? Screen.name})`;
  return WithQueries;
}
