/** The limits the platform puts on a name (games, API keys): 1–100 characters once trimmed, no control characters. */
export const NAME_MAX = 100;

/** Why `value` is not a valid name, or null when it is. `required` false: an empty name is allowed (key names). */
export function nameProblem(value: string, required: boolean): string | null {
  const name = value.trim();
  if (name === '') {
    return required ? 'Enter a name.' : null;
  }
  if ([...name].length > NAME_MAX) {
    return `Use at most ${NAME_MAX} characters (this one has ${[...name].length}).`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    return 'Remove the control characters.';
  }
  return null;
}
