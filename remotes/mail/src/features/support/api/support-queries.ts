import { useMutation } from '@tanstack/react-query';
import { leaveMessage } from './support.ts';

export const useLeaveMessageMutation = () => useMutation({ mutationFn: leaveMessage });
