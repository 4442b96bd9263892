/** Whether `chosen` (what the human answered to a widget) is this choice: its value, or its label in any case. */
export function isChosen(chosen: string | undefined, value: string | undefined, label: string): boolean {
  if (chosen === undefined) return false;
  const answer = chosen.trim().toLowerCase();
  return (value !== undefined && value.trim().toLowerCase() === answer) || label.trim().toLowerCase() === answer;
}
