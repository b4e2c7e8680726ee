import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/http";

/**
 * A write to the API (the CSRF header is added by `api`); on success the queries whose key starts with one of
 * `refresh` are loaded again.
 */
export function useWrite<Input, Output = unknown>(
  request: (input: Input) => { method: string; path: string; body?: unknown },
  refresh: unknown[][] = [],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => {
      const { method, path, body } = request(input);
      return api<Output>(method, path, body);
    },
    onSuccess: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
