import { queryOptions } from '@tanstack/react-query';
import { fetchPlans } from '../../api/plans.api';

/** Add User's query keys and reads, in one place. */
const addUserKeys = {
  all: ['add-user'] as const,
  plans: () => [...addUserKeys.all, 'plans'] as const,
};

/** The plans a new customer may be put on (the public ones). */
export const addUserPlansQuery = () =>
  queryOptions({
    queryKey: addUserKeys.plans(),
    queryFn: ({ signal }) => fetchPlans('guest', signal),
  });
