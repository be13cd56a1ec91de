/** The outcome of validating untrusted data: a value, or a readable error. Never thrown. */
export type Validation<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly error: string };

export const valid = <T>(value: T): Validation<T> => ({ success: true, value });
export const invalid = <T = never>(error: string): Validation<T> => ({ success: false, error });
